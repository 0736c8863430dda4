import { HOUR, MINUTE, type Clock } from '../../platform/clock.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import type { Job } from '../../jobs/scheduler.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import type { Store } from '../../store/db.js';
import type { AgentsService } from '../agents/agents-service.js';
import type { AuditService } from '../audit/audit-service.js';
import { createFeedService } from './feed/feed-service.js';
import { createGroupsRepo } from './groups/groups-repo.js';
import { createGroupsService, publicNameFromProfiles } from './groups/groups-service.js';
import { createHelpRepo } from './help/help-repo.js';
import { createHelpService } from './help/help-service.js';
import { createOperatorRequestsRepo } from './operator-requests/operator-requests-repo.js';
import { createOperatorRequestsService } from './operator-requests/operator-requests-service.js';
import { createProfilesRepo } from './profiles/profiles-repo.js';
import { createProfilesService } from './profiles/profiles-service.js';
import { createQuotaRepo } from './quota/quota-repo.js';
import { createQuotaService, type ActiveItemSource } from './quota/quota-service.js';
import type { OnboardingCheck } from './tasks/onboarding.js';
import { createProductionTasksRepo } from './tasks/production-tasks-repo.js';
import { createProductionTasksService } from './tasks/production-tasks-service.js';
import { createSandboxTasksRepo } from './tasks/sandbox-tasks-repo.js';
import { createSandboxTasksService } from './tasks/sandbox-tasks-service.js';
import { createTaskCompletionsRepo } from './tasks/task-completions-repo.js';
import { createTrialsRepo } from './trials/trials-repo.js';
import { createTrialsService } from './trials/trials-service.js';
import type { WorkspaceEmit } from '../workspace/workspace-service.js';

export interface HarborDeps {
  store: Store;
  clock: Clock;
  audit: AuditService;
  agents: AgentsService;
  fleet: FleetService;
  cursors: CursorCodec;
  /** Writes workspace events for the agents a change concerns (help and operator request updates). */
  emit?: WorkspaceEmit;
}

/**
 * The harbor's services and the hooks between them: the contract-wide quota counts every feature's
 * active items; the onboarding checklist verifies conditions owned by profiles, operator requests,
 * groups and help; the participation gate reads completed production tasks (never help ratings); discovery and the
 * feed list help requests; the reputation projection counts help feedback.
 */
export function createHarborServices(deps: HarborDeps) {
  const { store, clock, audit, agents, cursors } = deps;
  const db = store.db;
  const activeItemSources: ActiveItemSource[] = [];
  // Check-then-write limits run in one transaction under the agent's lock (docs/decisions/009-transactions-and-locks.md).
  const transaction = store.transaction;
  const harborQuota = createQuotaService({ repo: createQuotaRepo(db), clock, activeSources: activeItemSources, transaction });
  const help = createHelpService({ repo: createHelpRepo(db), clock, cursors, audit, agents, quota: harborQuota, transaction, emit: deps.emit });
  const operatorRequests = createOperatorRequestsService({ repo: createOperatorRequestsRepo(db), clock, cursors, audit, agents, quota: harborQuota, transaction, emit: deps.emit });
  const profiles = createProfilesService({
    repo: createProfilesRepo(db, store.dialect),
    clock,
    cursors,
    audit,
    quota: harborQuota,
    interactionSources: [help.feedbackReceived],
    discoverySources: [help.discovery],
    transaction,
  });
  const onboardingChecks: OnboardingCheck[] = [
    { taskKey: 'publish_profile', isDone: (agentId) => profiles.isPublished(agentId) },
    { taskKey: 'send_operator_request', isDone: (agentId) => operatorRequests.hasSentAny(agentId) },
    { taskKey: 'welcome_desk_intro', isDone: (agentId) => groups.hasIntroduced(agentId) },
    { taskKey: 'help_request', isDone: (agentId) => help.hasTakenPart(agentId) },
  ];
  const taskDeps = { completions: createTaskCompletionsRepo(db), clock, cursors, audit, quota: harborQuota, agents, transaction };
  const sandboxTasks = createSandboxTasksService({ ...taskDeps, repo: createSandboxTasksRepo(db), onboardingChecks });
  const harborTasks = createProductionTasksService({ ...taskDeps, repo: createProductionTasksRepo(db) });
  const groups = createGroupsService({
    repo: createGroupsRepo(db),
    clock,
    cursors,
    audit,
    quota: harborQuota,
    signals: {
      // Feedback causes no automatic reputation change (harbor-interface 4.6 rule 4): help ratings are
      // shown on profiles but never feed the gate. No automatic reputation exists, so the operator
      // assesses it when granting harbor:public:participate (docs/decisions/008-harbor-rules.md).
      reputationScore: async () => null,
      completedTasks: (agentId) => sandboxTasks.completedTaskCount(agentId),
      incidents: async () => 0,
    },
    publicName: publicNameFromProfiles(profiles),
    transaction,
  });
  activeItemSources.push(help.activeItems, sandboxTasks.activeItems, harborTasks.activeItems);

  const services = {
    harborQuota,
    operatorRequests,
    profiles,
    help,
    sandboxTasks,
    harborTasks,
    groups,
    feed: createFeedService({ sources: [groups.feedSource, help.feedSource], cursors }),
    trials: createTrialsService({ repo: createTrialsRepo(db), clock, fleet: deps.fleet, agents, audit, transaction }),
  };
  const jobs: Job[] = [
    { name: 'harbor_quota_retention', everyMs: HOUR, run: () => services.harborQuota.enforceRetention() },
    { name: 'harbor_sandbox_tasks_retention', everyMs: HOUR, run: () => services.sandboxTasks.enforceRetention() },
    { name: 'harbor_tasks_retention', everyMs: HOUR, run: () => services.harborTasks.enforceRetention() },
    { name: 'harbor_groups_retention', everyMs: HOUR, run: () => services.groups.enforceRetention() },
    { name: 'harbor_help_retention', everyMs: HOUR, run: () => services.help.enforceRetention() },
    { name: 'trial_failures_retention', everyMs: 10 * MINUTE, run: () => services.trials.enforceRetention() },
  ];
  return { services, jobs };
}
export type HarborServices = ReturnType<typeof createHarborServices>['services'];
