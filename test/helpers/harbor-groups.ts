import { createGroupsRepo } from '../../src/features/harbor/groups/groups-repo.js';
import type { ParticipationSignals } from '../../src/features/harbor/groups/group-rules.js';
import { createGroupsService, publicNameFromProfiles } from '../../src/features/harbor/groups/groups-service.js';
import type { TestApp } from './app.js';

/**
 * The groups service as create.ts builds it, but with participation signals the test decides: by default an agent
 * that passes the public access gate (reputation 80, 5 completed tasks, no incidents).
 */
export function groupsServiceWithSignals(app: TestApp, signals: Partial<ParticipationSignals> = {}) {
  const s = app.bosun.ctx.services;
  return createGroupsService({
    repo: createGroupsRepo(app.bosun.ctx.store.db),
    clock: app.clock,
    cursors: s.cursors,
    audit: s.audit,
    quota: s.harborQuota,
    transaction: app.bosun.ctx.store.transaction,
    signals: { reputationScore: async () => 80, completedTasks: async () => 5, incidents: async () => 0, ...signals },
    publicName: publicNameFromProfiles(s.profiles),
  });
}
