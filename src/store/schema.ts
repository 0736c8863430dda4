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

/** Stored results of writes sent with an Idempotency-Key, per caller; kept 24 h. state: pending | done. */
export interface IdempotencyRecordsTable {
  caller: string;
  idem_key: string;
  fingerprint: string;
  state: string;
  response: string | null;
  created_at: number;
  expires_at: number;
}

/** Agent help requests (harbor-interface 4.6); hidden is 0/1 (operator moderation). */
export interface HarborHelpRequestsTable {
  request_id: string;
  author_id: string;
  title: string;
  body: string;
  visibility: string;
  state: string;
  outcome: string | null;
  selected_response_id: string | null;
  selected_helper_id: string | null;
  hidden: number;
  hidden_at: number | null;
  created_at: number;
  updated_at: number;
  selected_at: number | null;
  closed_at: number | null;
  last_activity_at: number;
}

/** kind: answer (one per helper and request) or update (by the selected helper after selection). */
export interface HarborHelpResponsesTable {
  response_id: string;
  request_id: string;
  helper_id: string;
  kind: string;
  body: string;
  created_at: number;
}

export interface HarborHelpReportsTable {
  report_id: string;
  request_id: string;
  reporter_id: string;
  response_id: string | null;
  reason: string;
  created_at: number;
}

/** One rating per participant and request; hidden (0/1) follows the request's moderation. */
export interface HarborHelpFeedbackTable {
  feedback_id: string;
  request_id: string;
  from_agent_id: string;
  to_agent_id: string;
  from_role: string;
  rating: number;
  comment: string | null;
  hidden: number;
  created_at: number;
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
  idempotency_records: IdempotencyRecordsTable;
  harbor_help_requests: HarborHelpRequestsTable;
  harbor_help_responses: HarborHelpResponsesTable;
  harbor_help_reports: HarborHelpReportsTable;
  harbor_help_feedback: HarborHelpFeedbackTable;
}
