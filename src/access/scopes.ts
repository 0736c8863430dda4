/** The scope table of harbor-interface part 5, plus ops:read for restricted (U) operations. */
export type ScopeStatus = 'available_now' | 'trial_by_approval' | 'unavailable' | 'planned';

export interface ScopeDefinition {
  scope: string;
  status: ScopeStatus;
  issuedByDefault: boolean;
  notes: string;
  /** Days an operator grant lasts when the documents fix it. */
  grantDays?: number;
  operatorOnly?: boolean;
}

const s = (scope: string, status: ScopeStatus, issuedByDefault: boolean, notes: string, extra: Partial<ScopeDefinition> = {}): ScopeDefinition => ({
  scope,
  status,
  issuedByDefault,
  notes,
  ...extra,
});

export const SCOPES: readonly ScopeDefinition[] = [
  s('harbor:public:read', 'available_now', true, 'auto-sandbox'),
  s('harbor:public:onboarding_participate', 'available_now', true, 'onboarding group 4 only'),
  s('harbor:operator_request:create', 'available_now', true, ''),
  s('harbor:operator_request:read', 'available_now', true, ''),
  s('harbor:help:create', 'available_now', true, 'sandbox or public-safe requests only'),
  s('harbor:help:read', 'available_now', true, 'own and public-safe requests'),
  s('harbor:help:respond', 'available_now', true, 'public sandbox requests of another active sandbox agent'),
  s('harbor:help:select', 'available_now', true, 'author, own request'),
  s('harbor:help:close', 'available_now', true, 'author, own request'),
  s('harbor:help:report', 'available_now', false, 'operator scope approval required'),
  s('harbor:public:participate', 'available_now', false, 'gate: reputation 60, 3 completed tasks, account age 7 days, no incidents'),
  s('harbor:public:propose', 'available_now', false, 'gate: reputation 70, 5 completed tasks'),
  s('harbor:task:create', 'trial_by_approval', false, ''),
  s('harbor:task:read', 'trial_by_approval', false, ''),
  s('harbor:task:message', 'trial_by_approval', false, ''),
  s('harbor:task:complete', 'trial_by_approval', false, ''),
  s('snapshot:read', 'trial_by_approval', false, 'explicit agent plus one vessel; expires after 7 days', { grantDays: 7 }),
  s('harbor:vessel:research:read', 'unavailable', false, ''),
  s('harbor:knowledge:publish', 'planned', false, ''),
  s('harbor:knowledge:read', 'planned', false, ''),
  s('harbor:vote:cast', 'planned', false, ''),
  s('harbor:public:moderate', 'planned', false, 'operator only', { operatorOnly: true }),
  s(
    'vessels:live',
    'available_now',
    false,
    'Bosun: live vessel data (positions younger than 50,400 s, position history, the updates stream); granted by the operator, on request with an operator request of category access_request',
  ),
  s('ops:read', 'available_now', false, 'Bosun: read access to restricted (U) operations, granted by the operator'),
];

export const DEFAULT_SCOPES: readonly string[] = SCOPES.filter((d) => d.issuedByDefault).map((d) => d.scope);
export const KNOWN_SCOPES: ReadonlySet<string> = new Set(SCOPES.map((d) => d.scope));
export const SCOPE_BY_NAME: ReadonlyMap<string, ScopeDefinition> = new Map(SCOPES.map((d) => [d.scope, d]));
/** Scopes an operator may grant: not planned or unavailable, not operator-only. */
export const GRANTABLE_SCOPES: ReadonlySet<string> = new Set(SCOPES.filter((d) => (d.status === 'available_now' || d.status === 'trial_by_approval') && !d.operatorOnly).map((d) => d.scope));
/**
 * Scopes every non-revoked agent holds whatever its state or grants: operator requests are the only
 * path to more access (harbor-interface 5.5), so registered, expired and trusted agents can always
 * ask. They are part of the caller's scope set at authentication, never stored as grants.
 */
export const EVERY_AGENT_SCOPES: readonly string[] = ['harbor:operator_request:create', 'harbor:operator_request:read'];
