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
  /** Answer cache use: hit, miss, miss_evict (computed and stored, evicting one); null when the operation has no cache. */
  cache: string | null;
  /** The documented fallback that produced the answer (docs/decisions/066), null when none. */
  fallback: string | null;
  /** Age of an answer served from a cache. */
  cache_age_seconds: number | null;
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

/** Payment intents (disabled by default); amount is a decimal string, null for pay-what-you-want; proof is JSON. */
export interface PaymentIntentsTable {
  payment_id: string;
  agent_id: string;
  purpose: string;
  rail_id: string;
  amount: string | null;
  state: string;
  idempotency_key: string;
  request_hash: string;
  created_at: number;
  expires_at: number;
  updated_at: number;
  proof: string | null;
  proof_tx_hash: string | null;
  review_note: string | null;
}

/** Synthetic sandbox tasks. creator_id null: created by the service (onboarding_key names the checklist item). */
export interface HarborSandboxTasksTable {
  task_id: string;
  creator_id: string | null;
  assignee_id: string | null;
  onboarding_key: string | null;
  title: string;
  description: string;
  state: string;
  closed_by: string | null;
  created_at: number;
  updated_at: number;
  closed_at: number | null;
  last_activity_at: number;
}

/** author_id null: a message of the service. */
export interface HarborSandboxTaskMessagesTable {
  id: Generated<number>;
  message_id: string;
  task_id: string;
  author_id: string | null;
  body: string;
  created_at: number;
}

/** Production (canary) tasks. creator_id null: created by the operator. vessel_ref is "IMO:n" or "MMSI:n". */
export interface HarborTasksTable {
  task_id: string;
  creator_id: string | null;
  assignee_id: string | null;
  title: string;
  description: string;
  vessel_ref: string | null;
  state: string;
  result: string | null;
  created_at: number;
  updated_at: number;
  assigned_at: number | null;
  accepted_at: number | null;
  closed_at: number | null;
  last_activity_at: number;
}

/** author_kind: agent or operator (author_id null for the operator). */
export interface HarborTaskMessagesTable {
  id: Generated<number>;
  message_id: string;
  task_id: string;
  author_kind: string;
  author_id: string | null;
  body: string;
  created_at: number;
}

/**
 * Completed onboarding tasks and production tasks completed as assignee: ids and times only, kept after
 * the tasks' content is removed by retention, for the participation gate's completed-task count.
 */
export interface HarborTaskCompletionsTable {
  task_id: string;
  agent_id: string;
  kind: string;
  onboarding_key: string | null;
  completed_at: number;
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
  /** Where a post's factual claims come from; required when it names a vessel. */
  provenance: string | null;
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

/** An agent's expiring grant for one vessel: its ids as the operator gave them plus the resolved vessel. */
interface VesselGrantColumns {
  agent_id: string;
  vessel_ref: string;
  imo: number | null;
  mmsi: number | null;
  vsl_id: string | null;
  granted_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** One snapshot-trial vessel per agent (harbor-interface 4.8). */
export type HarborSnapshotTrialsTable = VesselGrantColumns;

/** Failed trial calls, for trial_error_rate_limited. */
export interface HarborTrialFailuresTable {
  id: Generated<number>;
  agent_id: string;
  code: string;
  at: number;
}

/** Secrets generated once per store and shared by every process on it (migration 20261123T1900). */
export interface ServiceSecretsTable {
  name: string;
  secret: string;
  created_at: number;
}

/** One row (id 1): bumped by trigger on every change to agents or agent_scopes. */
export interface AccessVersionTable {
  id: number;
  version: number;
}

/** Detected events (src/features/events/). `stops` is JSON; `departure` is null while the call is under way. */
export interface PortCallsTable {
  id: Generated<number>;
  vsl_id: string;
  port_id: number;
  ship_type: number | null;
  arrival: number;
  departure: number | null;
  last_fix_at: number;
  anchorage_ms: number;
  berth_ms: number;
  stops: string;
  first_seq: number;
  last_seq: number;
  fixes: number;
  gaps: number;
  confidence: number;
  simulated: number;
  updated_at: number;
}

/** A vessel's voyage between two port calls (docs/decisions/123), kept by the event store as its calls are written. */
export interface VoyagesTable {
  id: Generated<number>;
  vsl_id: string;
  from_port: number;
  to_port: number;
  /** Arrival of the origin call (with vsl_id, the key). */
  from_arrival: number;
  /** The origin call's departure, or its last fix when no departure was written. */
  departure: number;
  /** The next call's arrival. */
  arrival: number;
  ship_type: number | null;
  simulated: number;
}

/** Port calls counted per UTC day of arrival and of departure, port, ship type and simulated flag (docs/decisions/138). */
export interface PortCallDaysTable {
  /** Start of the UTC day of the calls' arrival (ms). */
  arrival_day: number;
  port_id: number;
  /** AIS ship type; -1 when unknown. */
  ship_type: number;
  simulated: number;
  /** Start of the UTC day of the calls' departure (ms); -1 while none is written. */
  departure_day: number;
  calls: number;
}

/** The voyages summed per UTC day, and per ISO week, of departure, lane and ship category (docs/decisions/149). */
export interface VoyageCellsTable {
  /** Start of the UTC day, or of the ISO week (Monday 00:00 UTC), of the voyages' departure (ms). */
  period_start: number;
  /**
   * 1: a day cell; 7: an ISO week; 2–6: a run of days beginning (period_start a Monday) or ending an ISO week;
   * 28: a block of four ISO weeks from 1970-01-05; 14, 21: a run of weeks beginning or ending a block
   * (docs/decisions/157).
   */
  period_days: number;
  from_port: number;
  to_port: number;
  /** Ship category (fleet/ship-types.ts), 'unknown' when the type is not known. */
  category: string;
  voyages: number;
  /** Voyages of them the lanes' rule leaves out (docs/decisions/177): an approximate cell's sketches and counts per day and hour hold the others only. */
  left_out: number;
  /** Voyages of them that are simulated, of those the rule does not leave out. */
  simulated: number;
  max_arrival: number;
  min_from_arrival: number;
  min_duration_ms: number;
  /**
   * 1: `facts` lists the voyages; 0: it holds an hours histogram and the voyages per day and per hour of departure,
   * and `vessel_registers` the vessels' HyperLogLog (docs/decisions/158 and 164).
   */
  exact: number;
  facts: string;
  /** The registers of an approximate cell (`encodeRegisters`); null for an exact one. */
  vessel_registers: string | null;
}

/**
 * The voyages summed per period and lane, all ship categories together (docs/decisions/153): what the lanes
 * answers without a ship-type filter read. An exact cell lists its voyages (`voyage_list`, as voyage_cells'
 * `facts`); an approximate one holds its vessels' HyperLogLog registers and its hours buckets, encoded
 * (src/platform/sketches.ts `encodeRegisters`, `encodeHours`).
 */
export interface VoyageLaneCellsTable {
  period_start: number;
  /** 1: a day cell; 7: a week cell. */
  period_days: number;
  from_port: number;
  to_port: number;
  voyages: number;
  /** Voyages of them the lanes' rule leaves out (docs/decisions/177): an approximate cell's sketches hold the others only. */
  left_out: number;
  /** Voyages of them that are simulated, of those the rule does not leave out. */
  simulated: number;
  max_arrival: number;
  min_from_arrival: number;
  min_duration_ms: number;
  /** The voyages of an exact cell (null: the cell is approximate). */
  voyage_list: string | null;
  vessel_registers: string | null;
  hours_buckets: string | null;
}

/**
 * The voyages of all lanes and ship categories of one period (docs/decisions/163): a lane cell of every lane at
 * once (the same columns and periods as voyage_lane_cells, without the lane), for a window's distinct vessels.
 */
export type VoyageWindowCellsTable = Omit<VoyageLaneCellsTable, 'from_port' | 'to_port'>;

/** Days whose voyage cells must be summed again (their voyages changed since); `version` counts the changes. */
export interface VoyageCellDaysDirtyTable {
  day: number;
  version: number;
}

/** A port's berth or anchorage area (docs/decisions/116); cells is JSON `[[row, col], …]` of a 0.005° grid. */
export interface PortAreasTable {
  area_id: Generated<number>;
  port_id: number;
  /** gfw, learnt or operator. */
  provenance: string;
  /** berth or anchorage. */
  kind: string;
  cells: string;
  lat: number;
  lon: number;
  confidence: number;
  vessels: number;
  stops: number;
  anchor_stops: number;
  gfw_points: number;
  updated_at: number;
  /** Stable key `port_id:row:col` of the anchor cell (decision 121); null on rows built before it. */
  area_key: string | null;
  /** Operator rows: JSON cells of the area they correct (masked from the built areas). */
  masks: string | null;
  /** Operator rows: the feedback ticket they were applied from. */
  ticket_id: string | null;
}

/** Encounters (possible STS transfers); vsl_a < vsl_b. */
export interface EncountersTable {
  id: Generated<number>;
  vsl_a: string;
  vsl_b: string;
  start_at: number;
  end_at: number;
  median_distance_m: number;
  lat: number;
  lon: number;
  zone: string | null;
  observations: number;
  first_seq: number;
  last_seq: number;
  confidence: number;
  simulated: number;
  updated_at: number;
  /** open_sea, anchorage or port (docs/decisions/077). */
  setting: Generated<string>;
}

export interface TransitsTable {
  id: Generated<number>;
  vsl_id: string;
  zone: string;
  direction: string;
  entered_at: number;
  exited_at: number;
  mean_speed_kn: number | null;
  stopped_ms: number;
  first_seq: number;
  last_seq: number;
  fixes: number;
  simulated: number;
  updated_at: number;
}

/**
 * Chokepoint transits summed per gate, direction, UTC day and hour of exit, cumulative over the day: the cell
 * of hour h holds the transits that left from the day's start to the end of hour h (docs/decisions/155).
 */
/** The port calls that began at one port on one UTC day, for visit rank (docs/decisions/161). */
export interface PortVisitCellsTable {
  /** Start of the UTC day of the calls' arrival (ms). */
  arrival_day: number;
  port_id: number;
  calls: number;
  /** Calls from the demo fleet. */
  simulated: number;
  /** The latest departure of the cell's calls (ms); null while none departed. */
  last_departure: number | null;
  /** Exact cells: JSON [vessel ids, dwell ms of the departed calls]; null when sketched. */
  call_list: string | null;
  /** Sketched cells: the vessels' HyperLogLog registers and the dwell hours' buckets (src/platform/sketches.ts). */
  vessel_registers: string | null;
  dwell_buckets: string | null;
}

/** The visit cells to count again from the calls (marked by the writes of port calls). */
export interface PortVisitCellsDirtyTable {
  arrival_day: number;
  port_id: number;
  version: number;
}

/** Blocks of visit cells: the cells of `span_days` consecutive days at one port merged (docs/decisions/170). */
export interface PortVisitBlocksTable extends PortVisitCellsTable {
  /** 2, 4, 8 or 16; `arrival_day` is the block's first day, a multiple of the span since the epoch. */
  span_days: number;
}

/** The blocks to merge again from their day cells (marked when a day cell in them is counted). */
export interface PortVisitBlocksDirtyTable extends PortVisitCellsDirtyTable {
  span_days: number;
}

/** Per vessel, window length and week: the most port calls it began in a window of that length starting in that week (docs/decisions/165). */
export interface VesselVisitBoundsTable {
  vsl_id: string;
  length_days: number;
  /** Start of the week (ms, weeks as the voyage cells', src/events/voyage-cells.ts). */
  week_start: number;
  bound: number;
}

/** A vessel's bound at one port: the most calls it began there in any span of the longest kept length starting in the week; kept from a floor of calls up (docs/decisions/175). */
export interface VesselPortVisitBoundsTable {
  vsl_id: string;
  port_id: number;
  /** Start of the week (ms, weeks as the voyage cells', src/events/voyage-cells.ts). */
  week_start: number;
  bound: number;
}

/** The vessels whose visit bounds are to be counted again from their calls, from `since` (an arrival, ms) on. */
export interface VesselVisitBoundsDirtyTable {
  vsl_id: string;
  since: number;
  version: number;
}

export interface TransitCellsTable {
  zone: string;
  direction: string;
  /** Start of the UTC day of exit (ms). */
  day: number;
  /** 0–23: the cell sums the day's transits that left up to the end of this hour. */
  hour: number;
  transits: number;
  simulated: number;
  /** Transits with a mean speed, and the sum of those speeds in tenths of a knot. */
  speeds: number;
  speed_tenths: number;
  /** Sum of max(0, exited − entered), ms. */
  in_gate_ms: number;
  stopped_ms: number;
}

/** Loitering: slower than 2 kn for 4 h or more, 20 nm or more from shore (docs/decisions/114). */
export interface LoiteringEventsTable {
  id: Generated<number>;
  vsl_id: string;
  start_at: number;
  end_at: number;
  lat: number;
  lon: number;
  mean_speed_kn: number;
  distance_nm: number;
  min_shore_nm: number;
  fixes: number;
  first_seq: number;
  last_seq: number;
  simulated: number;
  updated_at: number;
}

/** AIS gaps: no position for 6 h or more (docs/decisions/114); near_shore 1 when both ends lie within 50 nm of shore. */
export interface AisGapsTable {
  id: Generated<number>;
  vsl_id: string;
  start_at: number;
  end_at: number;
  start_lat: number;
  start_lon: number;
  end_lat: number;
  end_lon: number;
  distance_nm: number;
  implied_speed_kn: number;
  start_shore_nm: number;
  end_shore_nm: number;
  near_shore: number;
  first_seq: number;
  last_seq: number;
  simulated: number;
  updated_at: number;
}

/** The detector runner's checkpoint (cursor and detector state as JSON) and its lease. */
export interface EventDetectorStateTable {
  name: string;
  cursor_seq: number;
  state: string;
  data_time: number | null;
  owner: string | null;
  lease_until: number;
  updated_at: number;
}

/** Named leases between processes sharing the store (docs/decisions/100): `feeds` names the feed owner. */
export interface ProcessLeasesTable {
  name: string;
  owner: string | null;
  lease_until: number;
  /** When the current holder took the lease (renewals keep it). */
  acquired_at: number | null;
  updated_at: number;
}

/** A UTC day (days since the epoch) whose positions were thinned to one per vessel per `minutes` (docs/decisions/101). */
export interface PositionThinningTable {
  day: number;
  minutes: number;
  deleted: number;
  thinned_at: number;
}

/** Rows of `bosun import ports`, one per source and key (World Port Index number or LOCODE); `row` is the parsed row as JSON. */
export interface PortImportRowsTable {
  kind: 'wpi' | 'unlocode';
  key: string;
  row: string;
  source_file: string;
  line: number;
  imported_at: number;
}

/** One row (id 1): bumped by every import that records rows. */
export interface PortImportVersionTable {
  id: number;
  version: number;
}

export interface ExchangeBansTable {
  agent_id: string;
  reason: string;
  banned_at: number;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  csrf: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** Failed console sign-ins of one key, hashed: a client address or a known browser (docs/decisions/106). */
export interface ConsoleSigninGuardTable {
  key_hash: string;
  kind: 'address' | 'device';
  /** What the operator is shown: the redacted address, or the device hash's first characters. */
  label: string;
  failures: number;
  first_failure_at: number;
  locked_until: number | null;
  /** The last failure. */
  updated_at: number;
}

/** A browser the operator signed in from: its device cookie's token, hashed (docs/decisions/106). */
export interface ConsoleDevicesTable {
  token_hash: string;
  created_at: number;
  last_signin_at: number;
  expires_at: number;
}

/** Usage per caller, operation and UTC day (docs/billing.md); agent_id is '' for anonymous and operator calls. */
export interface UsageLedgerTable {
  day: string;
  caller_kind: string;
  agent_id: string;
  operation_id: string;
  calls: number;
  charged_calls: number;
  cost_milli: number;
  updated_at: number;
  /** Calls answered 4xx or 5xx. */
  failed_calls: Generated<number>;
  /** The time of the line's latest call (null only on lines older than the column). */
  last_call_at: number | null;
}

export interface WebmcpDispatchesTable {
  id: string;
  ts: number;
  /** 'dispatch' (POST /v1/webmcp/dispatch) or 'mcp' (a tools/call on /mcp). */
  channel: string;
  tool: string;
  caller_kind: string;
  agent_id: string | null;
  request_id: string;
  inner_request_id: string | null;
  status: number;
  error_code: string | null;
  latency_ms: number;
  cost_units: number;
  /** The call's arguments as JSON, sensitive values redacted. */
  arguments: string;
}

/** What a version of an exchange skill says; `tags` is a JSON array. */
interface SkillVersionColumns {
  skill_id: string;
  version: number;
  owner_id: string;
  slug: string;
  title: string;
  description: string;
  tags: string;
  inputs: string;
  outputs: string;
}

/** Exchange skills (docs/exchange-community.md): the current version. */
export interface ExchangeSkillsTable extends SkillVersionColumns {
  hidden: number;
  hidden_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** Every version of a skill, the current one included; change: created, updated or transferred. */
export interface ExchangeSkillVersionsTable extends SkillVersionColumns {
  change: string;
  created_at: number;
}

/** state: pending, accepted, declined, withdrawn or expired. */
export interface ExchangeSkillTransfersTable {
  transfer_id: string;
  skill_id: string;
  from_agent_id: string;
  to_agent_id: string;
  note: string;
  state: string;
  created_at: number;
  expires_at: number;
  resolved_at: number | null;
}

/** What a version of an agent's charter says; `rules` and `data_commitments` are JSON arrays of strings. */
interface CharterVersionColumns {
  agent_id: string;
  version: number;
  purpose: string;
  rules: string;
  data_commitments: string;
  contact_policy: string;
  created_at: number;
}

/** An agent's current charter. */
export interface ExchangeChartersTable extends CharterVersionColumns {
  hidden: number;
  hidden_reason: string | null;
  updated_at: number;
}

export type ExchangeCharterVersionsTable = CharterVersionColumns;

export interface ExchangeChannelsTable {
  name: string;
  description: string;
  built_in: number;
  created_at: number;
  hidden: number;
  hidden_reason: string | null;
}

export interface ExchangeMessagesTable {
  message_id: string;
  /** One sequence over every message, in commit order: the SSE event id. */
  seq: number;
  /** The channel of a channel message; null for a direct message. */
  channel: string | null;
  sender_id: string;
  sender_name: string;
  /** The other party of a direct message; null for a channel message. */
  recipient_id: string | null;
  reply_to: string | null;
  thread_id: string;
  body: string;
  created_at: number;
  hidden: number;
  hidden_reason: string | null;
  hidden_at: number | null;
}

export interface ExchangeDigestsTable {
  channel: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  day_start: number;
  message_count: number;
  author_count: number;
  first_message_at: number;
  last_message_at: number;
  /** JSON */
  top_threads: string;
  /** JSON */
  active_authors: string;
  built_at: number;
}

export interface ExchangeSummariesTable {
  day: string;
  day_start: number;
  /** JSON */
  summary: string;
  built_at: number;
}

/** Exchange claims (docs/exchange.md): `evidence` is JSON; score = up_weight − down_weight. */
export interface ExchangeClaimsTable {
  claim_id: string;
  author_id: string;
  subject_kind: string;
  subject_ref: string;
  kind: string;
  text: string;
  evidence: string;
  state: string;
  score: number;
  up_weight: number;
  down_weight: number;
  voters: number;
  hidden: number;
  created_at: number;
  updated_at: number;
  decidable_at: number;
  /** When a decision or expiry falls due: decidable_at once the votes pass the thresholds, else expires_at. */
  expires_at: number;
  due_at: number;
  decided_at: number | null;
}

/** One vote per agent and target (a claim, or a bounty's current submission). */
export interface ExchangeVotesTable {
  target_kind: string;
  target_id: string;
  voter_id: string;
  value: number;
  weight: number;
  reason: string | null;
  created_at: number;
  updated_at: number;
}

/** Bounties; `submission_evidence` and `refused_claimants` are JSON. */
export interface ExchangeBountiesTable {
  bounty_id: string;
  poster_id: string;
  title: string;
  text: string;
  subject_kind: string | null;
  subject_ref: string | null;
  reward: number;
  state: string;
  claimant_id: string | null;
  claimed_at: number | null;
  claim_expires_at: number | null;
  submission_text: string | null;
  submission_evidence: string | null;
  submission_claim_id: string | null;
  submitted_at: number | null;
  refused_claimants: string;
  /** 'reputation' (escrowed in the ledger) or 'allowance' (the poster's starter allowance; decision 117). */
  funding: string;
  settled_by: string | null;
  settled_note: string | null;
  settled_at: number | null;
  hidden: number;
  deadline_at: number;
  created_at: number;
  updated_at: number;
}

/** The append-only reputation ledger: `requested` before the daily cap, `delta` what was credited. */
export interface ExchangeReputationTable {
  entry_id: string;
  agent_id: string;
  delta: number;
  requested: number;
  reason: string;
  reference: string;
  capped: number;
  created_at: number;
}

/** Feedback tickets (docs/feedback.md); evidence and changes are JSON arrays. */
export interface FeedbackTicketsTable {
  ticket_id: string;
  agent_id: string;
  kind: string;
  subject_kind: string;
  subject_ref: string;
  title: string;
  body: string;
  evidence: string;
  changes: string;
  state: string;
  public_response: string | null;
  internal_note: string | null;
  created_at: number;
  updated_at: number;
}

/** A corrected value laid over observed data (vessel identity, port name and coordinates); value is JSON. */
export interface DataOverridesTable {
  override_id: string;
  ticket_id: string;
  target_kind: string;
  target_key: string;
  field: string;
  value: string;
  provenance: string;
  applied_at: number;
  reverted_at: number | null;
}

/** One row (id 1): bumped by every apply or revert of an override. */
export interface DataOverrideVersionTable {
  id: number;
  version: number;
}

export interface WorkspaceDocumentsTable {
  agent_id: string;
  name: string;
  media_type: string;
  content: string;
  size_bytes: number;
  revision: number;
  etag: string;
  created_at: number;
  updated_at: number;
}

/** An agent's event inbox: seq is monotonic per agent (workspace_event_counters). */
export interface WorkspaceEventsTable {
  agent_id: string;
  seq: number;
  event_id: string;
  kind: string;
  payload: string;
  created_at: number;
  acked_at: number | null;
}

export interface WorkspaceEventCountersTable {
  agent_id: string;
  last_seq: number;
}

/** Operator grants of the vessel services (snapshot and history) for one vessel, expiring. */
export interface VesselServiceGrantsTable extends VesselGrantColumns {
  grant_id: string;
}

/** resource_infra ingest runs (docs/resource-infra.md). state: running, succeeded, failed. skipped: JSON {reason: count}. */
export interface InfraRunsTable {
  id: Generated<number>;
  source_id: string;
  file: string;
  shipped_file: number;
  file_sha256: string | null;
  started_at: number;
  finished_at: number | null;
  state: 'running' | 'succeeded' | 'failed';
  rows_read: number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  failed: number;
  skipped: string;
  objects_after: number;
  error: string | null;
}

/** resource_infra objects; body: the object as JSON (geometry, units, classification, provenance). */
export interface InfraObjectsTable {
  id: string;
  source_id: string;
  source_key: string;
  category: string;
  subcategory: string | null;
  name: string;
  status: string;
  country: string | null;
  region: string | null;
  lon: number;
  lat: number;
  geometry_type: string;
  body: string;
  content_hash: string;
  first_run_id: number;
  last_run_id: number;
  created_at: number;
  updated_at: number;
}

/** Rows an ingest run could not turn into objects, with their reference and reason. */
export interface InfraFailuresTable {
  id: Generated<number>;
  run_id: number;
  source_id: string;
  row_ref: string;
  reason: string;
  detail: string;
}

/** Quality findings of the newest run of each source (duplicates: of the newest run of any source). */
export interface InfraFindingsTable {
  id: Generated<number>;
  source_id: string;
  run_id: number;
  object_id: string | null;
  row_ref: string | null;
  kind: string;
  lon: number | null;
  lat: number | null;
  detail: string;
}

export interface Database {
  infra_runs: InfraRunsTable;
  infra_objects: InfraObjectsTable;
  infra_failures: InfraFailuresTable;
  infra_findings: InfraFindingsTable;
  feedback_tickets: FeedbackTicketsTable;
  data_overrides: DataOverridesTable;
  data_override_version: DataOverrideVersionTable;
  workspace_documents: WorkspaceDocumentsTable;
  workspace_events: WorkspaceEventsTable;
  workspace_event_counters: WorkspaceEventCountersTable;
  vessel_service_grants: VesselServiceGrantsTable;
  exchange_claims: ExchangeClaimsTable;
  exchange_votes: ExchangeVotesTable;
  exchange_bounties: ExchangeBountiesTable;
  exchange_reputation: ExchangeReputationTable;
  console_sessions: ConsoleSessionsTable;
  console_signin_guard: ConsoleSigninGuardTable;
  console_devices: ConsoleDevicesTable;
  exchange_bans: ExchangeBansTable;
  exchange_channels: ExchangeChannelsTable;
  exchange_messages: ExchangeMessagesTable;
  exchange_digests: ExchangeDigestsTable;
  exchange_summaries: ExchangeSummariesTable;
  access_version: AccessVersionTable;
  port_import_rows: PortImportRowsTable;
  port_import_version: PortImportVersionTable;
  agents: AgentsTable;
  agent_scopes: AgentScopesTable;
  operator_account: OperatorAccountTable;
  operator_tokens: OperatorTokensTable;
  audit_log: AuditLogTable;
  request_telemetry: RequestTelemetryTable;
  harbor_operator_requests: HarborOperatorRequestsTable;
  harbor_profiles: HarborProfilesTable;
  harbor_action_ledger: HarborActionLedgerTable;
  payment_intents: PaymentIntentsTable;
  harbor_sandbox_tasks: HarborSandboxTasksTable;
  harbor_sandbox_task_messages: HarborSandboxTaskMessagesTable;
  harbor_tasks: HarborTasksTable;
  harbor_task_messages: HarborTaskMessagesTable;
  harbor_task_completions: HarborTaskCompletionsTable;
  harbor_snapshot_trials: HarborSnapshotTrialsTable;
  harbor_trial_failures: HarborTrialFailuresTable;
  vessels: VesselsTable;
  vessel_identity_history: VesselIdentityHistoryTable;
  positions: PositionsTable;
  vessel_lookups: VesselLookupsTable;
  preview_agent_labels: PreviewAgentLabelsTable;
  harbor_groups: HarborGroupsTable;
  harbor_group_members: HarborGroupMembersTable;
  harbor_group_posts: HarborGroupPostsTable;
  harbor_group_reactions: HarborGroupReactionsTable;
  harbor_group_reports: HarborGroupReportsTable;
  harbor_group_moderation: HarborGroupModerationTable;
  idempotency_records: IdempotencyRecordsTable;
  harbor_help_requests: HarborHelpRequestsTable;
  harbor_help_responses: HarborHelpResponsesTable;
  harbor_help_reports: HarborHelpReportsTable;
  harbor_help_feedback: HarborHelpFeedbackTable;
  service_secrets: ServiceSecretsTable;
  port_calls: PortCallsTable;
  voyages: VoyagesTable;
  port_call_days: PortCallDaysTable;
  voyage_cells: VoyageCellsTable;
  voyage_cell_days_dirty: VoyageCellDaysDirtyTable;
  voyage_lane_cells: VoyageLaneCellsTable;
  voyage_window_cells: VoyageWindowCellsTable;
  encounters: EncountersTable;
  port_areas: PortAreasTable;
  transits: TransitsTable;
  transit_cells: TransitCellsTable;
  port_visit_cells: PortVisitCellsTable;
  port_visit_cells_dirty: PortVisitCellsDirtyTable;
  port_visit_blocks: PortVisitBlocksTable;
  port_visit_blocks_dirty: PortVisitBlocksDirtyTable;
  vessel_visit_bounds: VesselVisitBoundsTable;
  vessel_visit_bounds_dirty: VesselVisitBoundsDirtyTable;
  vessel_port_visit_bounds: VesselPortVisitBoundsTable;
  loitering_events: LoiteringEventsTable;
  ais_gaps: AisGapsTable;
  event_detector_state: EventDetectorStateTable;
  process_leases: ProcessLeasesTable;
  position_thinning: PositionThinningTable;
  usage_ledger: UsageLedgerTable;
  webmcp_dispatches: WebmcpDispatchesTable;
  exchange_skills: ExchangeSkillsTable;
  exchange_skill_versions: ExchangeSkillVersionsTable;
  exchange_skill_transfers: ExchangeSkillTransfersTable;
  exchange_charters: ExchangeChartersTable;
  exchange_charter_versions: ExchangeCharterVersionsTable;
  infra_ingest_lock: InfraIngestLockTable;
  exchange_stream_notices: ExchangeStreamNoticesTable;
  route_readiness_snapshots: RouteReadinessSnapshotsTable;
}

/** The resource_infra ingest lock (docs/decisions/057): owner null when free; holder says who holds it (pid, host, source). */
export interface InfraIngestLockTable {
  name: string;
  owner: string | null;
  lease_until: number;
  acquired_at: number;
  holder: string | null;
}

/** A moderation notice of the exchange message stream, numbered in the messages' sequence (decision 055). */
export interface ExchangeStreamNoticesTable {
  seq: number;
  kind: 'message_hidden' | 'message_restored' | 'channel_hidden' | 'agent_banned';
  /** The message id, channel name or agent id the notice is about. */
  target_id: string;
  /** A message's channel (null for a direct message), or the hidden channel. */
  channel: string | null;
  sender_id: string | null;
  recipient_id: string | null;
  created_at: number;
}

/** A readiness snapshot of the routes section (decision 068); `checks` is a JSON array of {name, pass, value}. */
export interface RouteReadinessSnapshotsTable {
  id: Generated<number>;
  at: number;
  ready: number;
  passed: number;
  total: number;
  /** 'request' (computed for a caller) or 'job' (the periodic job). */
  origin: string;
  checks: string;
}
