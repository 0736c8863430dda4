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

/** One row per MMSI: merged identity and the latest usable position (pos_*), kept by the fleet service. */
export interface VesselsTable {
  vsl_id: string;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  ship_type: number | null;
  flag: string | null;
  length_m: number | null;
  beam_m: number | null;
  draught_m: number | null;
  destination: string | null;
  eta: string | null;
  simulated: number;
  /** JSON array of feed names. */
  sources: string;
  first_seen_at: number;
  last_seen_at: number;
  identity_observed_at: number | null;
  pos_observed_at: number | null;
  pos_received_at: number | null;
  pos_lat: number | null;
  pos_lon: number | null;
  pos_sog: number | null;
  pos_cog: number | null;
  pos_heading: number | null;
  pos_nav_status: number | null;
  pos_msg_type: number | null;
  pos_source: string | null;
  pos_simulated: number | null;
  /** JSON array of quality flags. */
  pos_quality_flags: string | null;
}

export interface VesselIdentityHistoryTable {
  id: Generated<number>;
  vsl_id: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  changed_at: number;
  source: string;
}

/** Every stored position; (vsl_id, observed_at) is unique and seq is the updates cursor. */
export interface PositionsTable {
  seq: Generated<number>;
  vsl_id: string;
  observed_at: number;
  received_at: number;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
  msg_type: number | null;
  source: string;
  simulated: number;
  usable: number;
  /** JSON array of quality flags. */
  quality_flags: string;
}

/** Keyed vessel reads, for the popularity leaderboard. */
export interface VesselLookupsTable {
  id: Generated<number>;
  vsl_id: string;
  agent_id: string;
  operation_id: string;
  at: number;
}

/** Self-declared X-Agent-Name / X-Agent-Vendor labels of preview calls (unverified; ip redacted). */
export interface PreviewAgentLabelsTable {
  id: Generated<number>;
  at: number;
  operation_id: string;
  agent_name: string | null;
  agent_vendor: string | null;
  ip: string | null;
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
  vessels: VesselsTable;
  vessel_identity_history: VesselIdentityHistoryTable;
  positions: PositionsTable;
  vessel_lookups: VesselLookupsTable;
  preview_agent_labels: PreviewAgentLabelsTable;
}
