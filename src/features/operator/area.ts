import type { AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import type { AuditService } from '../audit/audit-service.js';
import { createOperatorRepo } from './operator-repo.js';
import { createOperatorService } from './operator-service.js';

export const operatorArea = defineArea({
  name: 'operator',
  routes: [],
  build: ({ store, clock, audit }: Pick<AreaBase, 'store' | 'clock'> & { audit: AuditService }) => ({
    services: { operator: createOperatorService({ repo: createOperatorRepo(store.db), clock, audit }) },
  }),
});
