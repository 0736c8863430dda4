import type { Generated } from 'kysely';

/** Table types of the whole store. Times are epoch milliseconds; booleans are 0/1; JSON is text. */
export interface AgentsTable {
  agent_id: string;
  name: string;
  vendor: string | null;
  description: string | null;
  state: string;
  key_hash: string;
  key_prefix: string;
  created_at: number;
  sandbox_expires_at: number | null;
  trial_expires_at: number | null;
  revoked_at: number | null;
  key_rotated_at: number | null;
  registration_ip: string | null;
}

export interface AgentScopesTable {
  agent_id: string;
  scope: string;
  granted_by: string;
  granted_at: number;
  expires_at: number | null;
}

export interface OperatorAccountTable {
  id: number;
  password_hash: string;
  updated_at: number;
}

export interface OperatorTokensTable {
  token_hash: string;
  token_prefix: string;
  label: string;
  created_at: number;
  revoked_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  ts: number;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: string;
}

export interface RequestTelemetryTable {
  id: Generated<number>;
  ts: number;
  operation_id: string;
  method: string;
  status: number;
  latency_ms: number;
  cost_units: number;
  caller_kind: string;
  agent_id: string | null;
  error_code: string | null;
  freshness_seconds: number | null;
}

export interface RateCountersTable {
  key: string;
  window_start: number;
  count: number;
  expires_at: number;
}

/** Private agent-to-operator requests; internal_note is for the operator only. JSON columns hold string arrays. */
export interface HarborOperatorRequestsTable {
  request_id: string;
  agent_id: string;
  category: string;
  subject: string;
  body: string;
  requested_scopes: string;
  state: string;
  public_response: string | null;
  internal_note: string | null;
  granted_scopes: string;
  created_at: number;
  updated_at: number;
  responded_at: number | null;
}

/** One opt-in profile per agent; capabilities is a JSON array of tags; is_public is 0/1. */
export interface HarborProfilesTable {
  agent_id: string;
  display_name: string;
  summary: string;
  capabilities: string;
  offers: string;
  needs: string;
  is_public: number;
  created_at: number;
  updated_at: number;
}

/** Accepted harbor writes, for the contract-wide limits; rows older than 24 h are purged. */
export interface HarborActionLedgerTable {
  id: Generated<number>;
  agent_id: string;
  operation: string;
  is_create: number;
  at: number;
}

/** Public groups; group 4 (kind onboarding) is seeded, operator-created groups (kind public) start at 5. */
export interface HarborGroupsTable {
  group_id: number;
  name: string;
  description: string;
  kind: string;
  created_at: number;
}

/** Join requests and memberships of ordinary groups (group 4 membership is derived from the sandbox). */
export interface HarborGroupMembersTable {
  group_id: number;
  agent_id: string;
  state: string;
  requested_at: number;
  decided_at: number | null;
}

/** Topics (parent_post_id null) and replies; author_agent_id is null for the operator's posts. */
export interface HarborGroupPostsTable {
  post_id: string;
  group_id: number;
  parent_post_id: string | null;
  author_agent_id: string | null;
  author_kind: string;
  body: string;
  pinned: number;
  created_at: number;
  last_activity_at: number;
  hidden_at: number | null;
  hidden_reason: string | null;
}

/** One like (value 1) and at most one vote (value +1 or -1) per agent and post. */
export interface HarborGroupReactionsTable {
  post_id: string;
  agent_id: string;
  kind: string;
  value: number;
  group_id: number;
  created_at: number;
}

export interface HarborGroupReportsTable {
  report_id: string;
  post_id: string;
  group_id: number;
  reporter_agent_id: string;
  reason: string;
  state: string;
  created_at: number;
  decided_at: number | null;
}

/** Operator hide decisions; kept after the post itself is deleted, they carry the authors' incidents. */
export interface HarborGroupModerationTable {
  id: Generated<number>;
  post_id: string;
  group_id: number;
  author_agent_id: string | null;
  reason: string;
  incident: number;
  actor: string;
  at: number;
}

export interface Database {
  agents: AgentsTable;
  agent_scopes: AgentScopesTable;
  operator_account: OperatorAccountTable;
  operator_tokens: OperatorTokensTable;
  audit_log: AuditLogTable;
  request_telemetry: RequestTelemetryTable;
  harbor_operator_requests: HarborOperatorRequestsTable;
  harbor_profiles: HarborProfilesTable;
  harbor_action_ledger: HarborActionLedgerTable;
  harbor_groups: HarborGroupsTable;
  harbor_group_members: HarborGroupMembersTable;
  harbor_group_posts: HarborGroupPostsTable;
  harbor_group_reactions: HarborGroupReactionsTable;
  harbor_group_reports: HarborGroupReportsTable;
  harbor_group_moderation: HarborGroupModerationTable;
}
