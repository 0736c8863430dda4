import type { AgentsTable } from '../store/schema.js';

export type AgentState = 'registered' | 'sandbox' | 'trial' | 'trusted' | 'operator_approved' | 'revoked';
/** The state an agent is in now: a sandbox or trial past its end no longer counts. */
export type EffectiveState = AgentState | 'sandbox_expired' | 'trial_expired';

/** An authenticated agent, as resolved from its API key. */
export interface AgentPrincipal {
  agentId: string;
  name: string;
  state: EffectiveState;
  scopes: ReadonlySet<string>;
  row: AgentsTable;
}

/** The authenticated operator (one per deployment), as resolved from an operator token. */
export interface OperatorPrincipal {
  tokenPrefix: string;
}

/** Who is calling an operation. */
export type Caller = { kind: 'anonymous' } | { kind: 'agent'; agent: AgentPrincipal } | { kind: 'operator'; operator: OperatorPrincipal };
