import { MINUTE, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import type { Job } from '../../../jobs/scheduler.js';
import type { Store } from '../../../store/db.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeGate } from '../gate/exchange-gate.js';
import type { TelemetryService } from '../../telemetry/telemetry-service.js';
import { createActivityRepo } from './activity-repo.js';
import { createActivityService } from './activity-service.js';
import { createChartersRepo } from './charters-repo.js';
import { createChartersService } from './charters-service.js';
import { createSkillsRepo } from './skills-repo.js';
import { createSkillsService } from './skills-service.js';

/** The exchange community's services (skills, charters, activity) and their job. */
export function createExchangeCommunityServices(deps: {
  store: Store;
  clock: Clock;
  cursors: CursorCodec;
  audit: AuditService;
  agents: AgentsService;
  telemetry: TelemetryService;
  flushUsage: () => Promise<void>;
  gate: ExchangeGate;
}) {
  const { store, clock, cursors, audit, agents, telemetry } = deps;
  const transaction = store.transaction;
  const exchangeCharters = createChartersService({ repo: createChartersRepo(store.db), clock, cursors, audit, transaction });
  const exchangeSkills = createSkillsService({ repo: createSkillsRepo(store.db), charters: exchangeCharters, gate: deps.gate, agents, audit, clock, cursors, transaction });
  const exchangeActivity = createActivityService({ repo: createActivityRepo(store.db), telemetry, flushUsage: deps.flushUsage, skills: exchangeSkills, charters: exchangeCharters, clock, cursors });
  const jobs: Job[] = [{ name: 'exchange_skill_transfer_expiry', everyMs: MINUTE, run: () => exchangeSkills.expireDue() }];
  return { services: { exchangeSkills, exchangeCharters, exchangeActivity }, jobs };
}

/** Lets the operator hide and restore skills and charters (bosun exchange hide|restore skill|charter ID). */
export function registerExchangeCommunityKinds(gate: ExchangeGate, services: ReturnType<typeof createExchangeCommunityServices>['services']): void {
  gate.registerKind('skill', services.exchangeSkills.moderation);
  gate.registerKind('charter', services.exchangeCharters.moderation);
}
