import { hourlyRetention, type AreaBase } from '../kit/area.js';
import { defineArea } from '../kit/define-area.js';
import { createAuditRepo } from './audit-repo.js';
import { createAuditService } from './audit-service.js';

export const auditArea = defineArea({
  name: 'audit',
  routes: [],
  build: ({ store, clock }: Pick<AreaBase, 'store' | 'clock'>) => {
    const audit = createAuditService({ repo: createAuditRepo(store.db), clock });
    return { services: { audit }, jobs: [hourlyRetention('audit_retention', audit)] };
  },
});
