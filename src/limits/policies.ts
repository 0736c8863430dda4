import { DAY, HOUR, MINUTE } from '../platform/clock.js';

export interface LimitWindow {
  name: 'minute' | 'hour' | 'day';
  windowMs: number;
  limit: number;
}

export type LimitKeying =
  /** the verified agent id (or "anonymous") together with the client address */
  | 'identity_ip'
  /** the agent id for agents, the client address otherwise */
  | 'caller'
  | 'ip';

export type LimitRefusalCode = 'rate_limited' | 'ip_rate_limited' | 'trial_rate_limited' | 'error_rate_limited';

export interface LimitPolicy {
  name: string;
  description: string;
  windows: readonly LimitWindow[];
  keying: LimitKeying;
  /** Counted separately for each operation rather than across all of them. */
  perOperation: boolean;
  /** The error code of a refusal (each one is in src/platform/errors.ts, which checks it where it throws). */
  code: LimitRefusalCode;
}

const minute = (limit: number): LimitWindow => ({ name: 'minute', windowMs: MINUTE, limit });
const hour = (limit: number): LimitWindow => ({ name: 'hour', windowMs: HOUR, limit });
const day = (limit: number): LimitWindow => ({ name: 'day', windowMs: DAY, limit });

/** Every request limit in force. /v1/capabilities/limits is generated from this table. */
export const LIMIT_POLICIES = {
  anonymous_default: {
    name: 'anonymous_default',
    description: 'All calls without a credential from one client address.',
    windows: [minute(600)],
    keying: 'ip',
    perOperation: false,
    code: 'ip_rate_limited',
  },
  agent_default: {
    name: 'agent_default',
    description: 'All calls made with one agent key.',
    windows: [minute(1200)],
    keying: 'caller',
    perOperation: false,
    code: 'rate_limited',
  },
  anonymous_preview: {
    name: 'anonymous_preview',
    description:
      'Anonymous preview (core-interface part 8): per identity and IP address, per endpoint. The identity is the verified agent id, or "anonymous"; self-declared X-Agent-* labels never change it.',
    windows: [minute(6), day(60)],
    keying: 'identity_ip',
    perOperation: true,
    code: 'ip_rate_limited',
  },
  snapshot_trial: {
    name: 'snapshot_trial',
    description: 'Vessel snapshot trial calls of one agent (harbor-interface 4.8).',
    windows: [minute(6), day(100)],
    keying: 'caller',
    perOperation: true,
    code: 'trial_rate_limited',
  },
  error_budget: {
    name: 'error_budget',
    description:
      'Failed calls (4xx answers other than 429) of one caller: the agent, or the client address without a valid key. Once a window is full every call of that caller is refused until it ends.',
    windows: [minute(100), hour(1000)],
    keying: 'caller',
    perOperation: false,
    code: 'error_rate_limited',
  },
  mcp_messages: {
    name: 'mcp_messages',
    description:
      'Messages POSTed to the MCP endpoint (/mcp) by one caller: the agent, or the client address without a valid agent key. Each tool call a message carries is also counted as its own operation.',
    windows: [minute(600)],
    keying: 'caller',
    perOperation: false,
    code: 'rate_limited',
  },
  registration: {
    name: 'registration',
    description: 'Agent registrations from one client address.',
    windows: [hour(20)],
    keying: 'ip',
    perOperation: true,
    code: 'ip_rate_limited',
  },
} as const satisfies Record<string, LimitPolicy>;

export type LimitPolicyName = keyof typeof LIMIT_POLICIES;
