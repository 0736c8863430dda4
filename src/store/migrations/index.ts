import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import * as spine from './20261121T0900_spine.js';
import * as harborProfiles from './20261121T1110_harbor_profiles.js';
import * as harborQuota from './20261121T1200_harbor_quota.js';
import * as payments from './20261121T1210_payments.js';
import * as snapshotTrials from './20261121T1220_snapshot_trials.js';
import * as fleet from './20261121T1300_fleet.js';
import * as harborGroups from './20261121T1300_harbor_groups.js';
import * as harborTasks from './20261121T1300_harbor_tasks.js';
import * as idempotency from './20261121T1320_idempotency.js';
import * as harborHelp from './20261121T1330_harbor_help.js';
import * as groupPostProvenance from './20261121T1400_group_post_provenance.js';
import * as serviceSecrets from './20261123T1900_service_secrets.js';
import * as accessVersion from './20261123T2200_access_version.js';
import * as events from './20261124T0100_events.js';
import * as portImports from './20261124T0200_port_imports.js';
import * as exchangeBase from './20261124T0300_exchange_base.js';
import * as exchangeCore from './20261124T0310_exchange_core.js';
import * as exchangeMessages from './20261124T0320_exchange_messages.js';
import * as exchangeCommunity from './20261124T0330_exchange_community.js';
import * as feedbackWorkspace from './20261124T0400_feedback_workspace.js';
import * as webmcp from './20261124T0500_webmcp.js';
import * as billingUsage from './20261124T0510_billing_usage.js';
import * as resourceInfra from './20261124T0600_resource_infra.js';
import * as consoleSessions from './20261124T0700_console_sessions.js';
import * as exchangeStreamNotices from './20261125T0100_exchange_stream_notices.js';
import * as infraIngestLock from './20261125T0300_infra_ingest_lock.js';
import * as routesQuality from './20261126T0300_routes_quality.js';
import * as routesReadiness from './20261126T0400_routes_readiness.js';
import * as usageActivity from './20261126T0500_usage_activity.js';
import * as processLeases from './20261127T0100_process_leases.js';
import * as positionsByDay from './20261127T0200_positions_by_day.js';
import * as encounterSetting from './20261127T0600_encounter_setting.js';
import * as consoleSigninGuard from './20261127T2100_console_signin_guard.js';
import * as loiteringGaps from './20261128T0100_loitering_gaps.js';
import * as portAreas from './20261128T0200_port_areas.js';
import * as bountyFunding from './20261128T0300_bounty_funding.js';
import * as portAreaCorrections from './20261128T0400_port_area_corrections.js';
import * as voyages from './20261128T0500_voyages.js';
import * as portCallDays from './20261128T0600_port_call_days.js';
import * as voyageCells from './20261129T0700_voyage_cells.js';
import * as voyageLaneCells from './20261129T0800_voyage_lane_cells.js';
import * as transitCells from './20261129T1000_transit_cells.js';
import * as voyageLaneRuns from './20261129T1200_voyage_lane_runs.js';
import * as voyageCellsFixedCost from './20261129T1300_voyage_cells_fixed_cost.js';
import * as transitsStopped from './20261129T1400_transits_stopped.js';
import * as portVisitCells from './20261129T1600_port_visit_cells.js';
import * as voyageWindowCells from './20261129T2000_voyage_window_cells.js';
import * as voyageCellRuns from './20261129T2100_voyage_cell_runs.js';
import * as vesselVisitBounds from './20261129T2200_vessel_visit_bounds.js';
import * as voyageCellsByOrigin from './20261129T2320_voyage_cells_by_origin.js';
import * as portVisitBlocks from './20261129T2330_port_visit_blocks.js';
import * as vesselPortVisitBounds from './20261130T0100_vessel_port_visit_bounds.js';
import * as voyageCellsLeftOut from './20261130T0200_voyage_cells_left_out.js';

export interface BosunMigration {
  up(db: Kysely<any>, dialect: DialectHelpers): Promise<void>;
}

/** Every migration, keyed by its timestamped name, listed and applied in name order (test/unit/migrations.test.ts). */
export const MIGRATIONS: Record<string, BosunMigration> = {
  '20261121T0900_spine': spine,
  '20261121T1110_harbor_profiles': harborProfiles,
  '20261121T1200_harbor_quota': harborQuota,
  '20261121T1210_payments': payments,
  '20261121T1220_snapshot_trials': snapshotTrials,
  '20261121T1300_fleet': fleet,
  '20261121T1300_harbor_groups': harborGroups,
  '20261121T1300_harbor_tasks': harborTasks,
  '20261121T1320_idempotency': idempotency,
  '20261121T1330_harbor_help': harborHelp,
  '20261121T1400_group_post_provenance': groupPostProvenance,
  '20261123T1900_service_secrets': serviceSecrets,
  '20261123T2200_access_version': accessVersion,
  '20261124T0100_events': events,
  '20261124T0200_port_imports': portImports,
  '20261124T0300_exchange_base': exchangeBase,
  '20261124T0310_exchange_core': exchangeCore,
  '20261124T0320_exchange_messages': exchangeMessages,
  '20261124T0330_exchange_community': exchangeCommunity,
  '20261124T0400_feedback_workspace': feedbackWorkspace,
  '20261124T0500_webmcp': webmcp,
  '20261124T0510_billing_usage': billingUsage,
  '20261124T0600_resource_infra': resourceInfra,
  '20261124T0700_console_sessions': consoleSessions,
  '20261125T0100_exchange_stream_notices': exchangeStreamNotices,
  '20261125T0300_infra_ingest_lock': infraIngestLock,
  '20261126T0300_routes_quality': routesQuality,
  '20261126T0400_routes_readiness': routesReadiness,
  '20261126T0500_usage_activity': usageActivity,
  '20261127T0100_process_leases': processLeases,
  '20261127T0200_positions_by_day': positionsByDay,
  '20261127T0600_encounter_setting': encounterSetting,
  '20261127T2100_console_signin_guard': consoleSigninGuard,
  '20261128T0100_loitering_gaps': loiteringGaps,
  '20261128T0200_port_areas': portAreas,
  '20261128T0300_bounty_funding': bountyFunding,
  '20261128T0400_port_area_corrections': portAreaCorrections,
  '20261128T0500_voyages': voyages,
  '20261128T0600_port_call_days': portCallDays,
  '20261129T0700_voyage_cells': voyageCells,
  '20261129T0800_voyage_lane_cells': voyageLaneCells,
  '20261129T1000_transit_cells': transitCells,
  '20261129T1200_voyage_lane_runs': voyageLaneRuns,
  '20261129T1300_voyage_cells_fixed_cost': voyageCellsFixedCost,
  '20261129T1400_transits_stopped': transitsStopped,
  '20261129T1600_port_visit_cells': portVisitCells,
  '20261129T2000_voyage_window_cells': voyageWindowCells,
  '20261129T2100_voyage_cell_runs': voyageCellRuns,
  '20261129T2200_vessel_visit_bounds': vesselVisitBounds,
  '20261129T2320_voyage_cells_by_origin': voyageCellsByOrigin,
  '20261129T2330_port_visit_blocks': portVisitBlocks,
  '20261130T0100_vessel_port_visit_bounds': vesselPortVisitBounds,
  '20261130T0200_voyage_cells_left_out': voyageCellsLeftOut,
};
