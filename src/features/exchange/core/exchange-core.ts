import type { ExchangeCoreDeps } from './exchange-core-service.js';
import type { Clock } from '../../../platform/clock.js';
import type { FleetReads } from '../../../fleet/fleet-reads.js';
import type { FleetService } from '../../../fleet/fleet-service.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import type { Db } from '../../../store/db.js';
import type { TransactionRunner } from '../../../store/transaction.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeGate } from '../gate/exchange-gate.js';
import { publicNameFromProfiles } from '../../harbor/groups/groups-service.js';
import type { ProfilesService } from '../../harbor/profiles/profiles-service.js';
import type { PortsService } from '../../ports/ports-service.js';
import { createExchangeCoreRepo } from './exchange-core-repo.js';
import { createExchangeCoreService } from './exchange-core-service.js';
import { createReferenceChecker } from './exchange-references.js';
import { createReputationLedger } from './reputation-ledger.js';

/** Builds the exchange core from the area's gate and the app's parts (src/features/exchange/exchange-area.ts). */
export function createExchangeCore(deps: {
  db: Db;
  transaction: TransactionRunner;
  clock: Clock;
  audit: AuditService;
  cursors: CursorCodec;
  agents: AgentsService;
  profiles: ProfilesService;
  fleet: FleetService;
  fleetReads: FleetReads;
  ports: PortsService;
  gate: ExchangeGate;
  /** Workspace events for claim votes and decisions and bounty changes (docs/workspace.md). */
  notify?: ExchangeCoreDeps['notify'];
}) {
  const repo = createExchangeCoreRepo(deps.db);
  const references = createReferenceChecker({
    fleet: deps.fleet,
    fleetReads: deps.fleetReads,
    ports: deps.ports,
    eventExists: (kind, id) => repo.eventExists(kind, id),
    claimVisible: async (claimId) => {
      const row = await repo.findClaim(claimId);
      return row !== undefined && row.hidden === 0;
    },
  });
  return createExchangeCoreService({
    repo,
    ledger: createReputationLedger({ repo, clock: deps.clock }),
    references,
    gate: deps.gate,
    audit: deps.audit,
    cursors: deps.cursors,
    clock: deps.clock,
    transaction: deps.transaction,
    publicName: publicNameFromProfiles(deps.profiles),
    agentExists: async (agentId) => (await deps.agents.standing(agentId)) !== undefined,
    notify: deps.notify,
  });
}

/** Registers the core's record kinds for `bosun exchange hide|restore`: hiding a claim costs its author 20 points, restoring gives them back. */
export function registerExchangeCoreKinds(gate: ExchangeGate, core: ReturnType<typeof createExchangeCore>): void {
  gate.registerKind('claim', { hide: (id) => core.hideClaim(id), restore: (id) => core.restoreClaim(id) });
  gate.registerKind('bounty', { hide: (id) => core.hideBounty(id), restore: (id) => core.restoreBounty(id) });
}
