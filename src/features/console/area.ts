import { HOUR } from '../../platform/clock.js';
import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import type { OperatorService } from '../operator/operator-service.js';
import { createConsoleSessions } from './console-sessions.js';
import { createConsoleSessionsRepo } from './console-sessions-repo.js';

export const consoleArea = defineArea({
  name: 'console',
  routes: [],
  build: ({ store, clock, audit, operator }: Pick<AreaBase, 'store' | 'clock'> & { audit: AuditService; operator: OperatorService }) => {
    const consoleSessions = createConsoleSessions({ repo: createConsoleSessionsRepo(store.db), operator, audit, clock });
    return { services: { consoleSessions }, jobs: [{ name: 'console_sessions_expiry', everyMs: HOUR, run: () => consoleSessions.deleteExpired() }] };
  },
});
