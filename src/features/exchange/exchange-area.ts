import { HOUR, MINUTE, type Clock } from '../../platform/clock.js';
import type { Bus } from '../../bus/index.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import { AppError } from '../../platform/errors.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import type { Job } from '../../jobs/scheduler.js';
import type { LeaseSlots } from '../../limits/slots.js';
import type { Store } from '../../store/db.js';
import type { AgentsService } from '../agents/agents-service.js';
import type { AuditService } from '../audit/audit-service.js';
import type { ProfilesService } from '../harbor/profiles/profiles-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { TelemetryService } from '../telemetry/telemetry-service.js';
import type { WorkspaceEmit } from '../workspace/workspace-service.js';
import { createExchangeCommunityServices, registerExchangeCommunityKinds } from './community/community-services.js';
import { createExchangeCore, registerExchangeCoreKinds } from './core/exchange-core.js';
import { createExchangeGate } from './gate/exchange-gate.js';
import { createExchangeGateRepo } from './gate/exchange-gate-repo.js';
import { createMessagesRepo } from './messages/messages-repo.js';
import { createMessagesService, MESSAGES_TOPIC } from './messages/messages-service.js';
import { createStreamHub } from './messages/stream-hub.js';
import { createMessageStreams } from './messages/stream-service.js';

/**
 * The exchange area (`/v1/exchange`): the gate first (membership, bans, moderation kinds), then messages and
 * their streams, the community (skills, charters, activity) and the core (claims, votes, bounties), each
 * given the gate itself; the record kinds are registered with the gate once all exist.
 */
export function createExchangeArea(deps: {
  store: Store;
  bus: Bus;
  clock: Clock;
  cursors: CursorCodec;
  audit: AuditService;
  agents: AgentsService;
  profiles: ProfilesService;
  telemetry: TelemetryService;
  fleet: FleetService;
  fleetReads: FleetReads;
  ports: PortsService;
  /** Workspace events of messages, claims and bounties (docs/workspace.md). */
  notify: WorkspaceEmit;
  /** Per-agent stream slots (Redis leases across processes, or in memory). */
  streamSlots: LeaseSlots;
  flushUsage: () => Promise<void>;
  onStreamError: (err: unknown) => void;
}) {
  const { store, bus, clock, cursors, audit, agents } = deps;
  const exchangeGate = createExchangeGate({ repo: createExchangeGateRepo(store.db), agents, audit, clock });

  const messagesRepo = createMessagesRepo(store.db);
  const exchangeMessages = createMessagesService({
    repo: messagesRepo,
    bus,
    clock,
    cursors,
    agents,
    audit,
    transaction: store.transaction,
    isBanned: (id) => exchangeGate.isBanned(id),
    notify: deps.notify,
  });
  exchangeGate.registerKind('message', exchangeMessages.moderation('message'));
  exchangeGate.registerKind('channel', exchangeMessages.moderation('channel'));
  exchangeGate.onBan((agentId) => exchangeMessages.announceBan(agentId));
  const exchangeStreams = createMessageStreams({
    hub: createStreamHub({ repo: messagesRepo, bus, clock, topic: MESSAGES_TOPIC, onError: deps.onStreamError }),
    slots: deps.streamSlots,
    checkChannels: async (names) => {
      const known = new Set((await exchangeMessages.channels()).map((c) => c.name));
      const missing = names.find((n) => !known.has(n));
      if (missing !== undefined) throw new AppError('exchange_channel_not_found', `no channel ${missing}; GET /v1/exchange/channels lists them`, { field: 'channel' });
    },
  });

  const community = createExchangeCommunityServices({ store, clock, cursors, audit, agents, telemetry: deps.telemetry, flushUsage: deps.flushUsage, gate: exchangeGate });
  registerExchangeCommunityKinds(exchangeGate, community.services);

  const exchangeCore = createExchangeCore({
    db: store.db,
    transaction: store.transaction,
    clock,
    audit,
    cursors,
    agents,
    profiles: deps.profiles,
    fleet: deps.fleet,
    fleetReads: deps.fleetReads,
    ports: deps.ports,
    gate: exchangeGate,
    notify: deps.notify,
  });
  registerExchangeCoreKinds(exchangeGate, exchangeCore);

  const jobs: Job[] = [
    { name: 'exchange_digests', everyMs: HOUR, run: () => exchangeMessages.buildDigests() },
    ...community.jobs,
    { name: 'exchange_core_sweep', everyMs: MINUTE, run: () => exchangeCore.sweep() },
  ];
  return { services: { exchangeGate, exchangeMessages, exchangeStreams, exchangeCore, ...community.services }, jobs };
}
