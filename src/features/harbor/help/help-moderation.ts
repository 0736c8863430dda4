import { iso, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { QuotaService } from '../quota/quota-service.js';
import type { HelpRepo, HelpRequestRow } from './help-repo.js';
import { checkReportReason, type HelpActor } from './help-rules.js';
import { operatorReportView, type HelpRequestView } from './help-views.js';

export interface HelpModerationDeps {
  repo: HelpRepo;
  clock: Clock;
  audit: AuditService;
  quota: QuotaService;
  transaction: TransactionRunner;
  /** The request if the actor may read it, else help_request_not_found. */
  visibleRequest: (actor: HelpActor, requestId: string) => Promise<HelpRequestRow>;
  view: (row: HelpRequestRow, viewerId: string | null) => Promise<HelpRequestView>;
}

/** Reports by agents, the operator's report list, and hiding a request. */
export function createHelpModeration(deps: HelpModerationDeps) {
  const { repo, clock, audit, quota, transaction } = deps;
  return {
    async report(actor: HelpActor, requestId: string, input: { reason?: string; response_id?: string }) {
      const row = await deps.visibleRequest(actor, requestId);
      const reason = checkReportReason(input.reason);
      if (input.response_id !== undefined) {
        const response = await repo.findResponse(input.response_id);
        if (!response || response.request_id !== requestId) {
          throw new AppError('help_response_not_found', `no response ${input.response_id} on help request ${requestId}`, { field: 'body.response_id' });
        }
      }
      const duplicate = () => new AppError('help_duplicate_report_forbidden', 'you already reported this help request; the operator has your report');
      const report = await transaction(agentLock(actor.agentId), async (trx) => {
        if (await repo.findReport(requestId, actor.agentId, trx)) throw duplicate();
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdReport.report', {}, trx);
        const report = { report_id: newId('hrp_'), request_id: requestId, reporter_id: actor.agentId, response_id: input.response_id ?? null, reason, created_at: clock.now() };
        if (!(await repo.insertReport(report, trx))) throw duplicate();
        await audit.record(
          { actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.report', target: requestId, details: { report_id: report.report_id, response_id: report.response_id } },
          trx,
        );
        return report;
      });
      return {
        report_id: report.report_id,
        help_request_id: row.request_id,
        request_id: row.request_id,
        response_id: report.response_id,
        reason,
        state: 'received' as const,
        created_at: iso(report.created_at),
      };
    },

    async reportsForOperator(filter: { limit: number }) {
      return (await repo.listReports(filter.limit)).map(operatorReportView);
    },

    /** Operator moderation: a hidden request leaves lists and discovery, and its feedback leaves reputation. */
    async setHidden(requestId: string, hidden: boolean, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const row = await repo.findRequest(requestId);
      if (!row) throw new AppError('help_request_not_found', `no help request ${requestId}`);
      await repo.setHidden(requestId, hidden, clock.now());
      await audit.record({ actor, action: hidden ? 'harbor.help.hide' : 'harbor.help.unhide', target: requestId, details: { author_id: row.author_id } });
      return deps.view((await repo.findRequest(requestId))!, null);
    },
  };
}
