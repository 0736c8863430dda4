import { AppError } from '../../platform/errors.js';
import type { PageDefinition } from '../../http/pages.js';
import { layout } from '../web/layout.js';
import { TICKET_KINDS, TICKET_STATES, type OperatorStep } from '../feedback/feedback-service.js';
import { PAYMENT_STATES } from '../payments/payments-service.js';
import { consoleKit, OPERATOR, optional, required } from './console-kit.js';
import type { ConsoleSessions } from './console-sessions.js';
import { exchangeView, feedsView, paymentsView, REASON_MAX, routesView, ticketsView, ticketView, trialsView, type OpsServices } from './console-ops-views.js';

export interface ConsoleOpsDeps {
  sessions: ConsoleSessions;
  services: OpsServices;
}

const OPERATOR_STEPS: readonly OperatorStep[] = ['triage', 'accept', 'reject', 'apply', 'revert', 'close'];

function reason(form: URLSearchParams): string {
  const text = required(form, 'reason');
  if (text.length > REASON_MAX) throw new AppError('invalid_request', `reason is at most ${REASON_MAX} characters`, { field: 'reason' });
  return text;
}

/**
 * The console's operations views (issue 16): feeds and ingest state, snapshot trials, payment proofs
 * review, feedback tickets, exchange moderation and the route service's telemetry. Every action is the
 * CLI's service call with the actor `operator`, audited by that service (docs/decisions/061).
 */
export function consoleOpsPages(deps: ConsoleOpsDeps): PageDefinition[] {
  const { services } = deps;
  const { signedIn, action } = consoleKit(deps.sessions);

  return [
    // ── feeds and ingest state
    {
      method: 'GET',
      path: '/console/feeds',
      handler: signedIn(async (_req, session) => {
        const status = await services.meta.status();
        return { html: layout({ title: 'Feeds', console: session, main: feedsView(status) }) };
      }),
    },

    // ── snapshot trials (bosun harbor trials list|grant|revoke)
    {
      method: 'GET',
      path: '/console/trials',
      handler: signedIn(async (_req, session) => {
        const rows = await services.trials.list(100);
        return { html: layout({ title: 'Trials', console: session, main: trialsView(rows, session) }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/trials/grant',
      handler: action(async (form) => {
        await services.trials.grant(required(form, 'agent_id'), required(form, 'vessel'), OPERATOR);
        return '/console/trials';
      }),
    },
    {
      method: 'POST',
      path: '/console/trials/revoke',
      handler: action(async (form) => {
        const agentId = required(form, 'agent_id');
        if (!(await services.trials.revoke(agentId, OPERATOR))) throw new AppError('not_found', `${agentId} has no active trial`);
        return '/console/trials';
      }),
    },

    // ── payment proofs (bosun payments list|review)
    {
      method: 'GET',
      path: '/console/payments',
      handler: signedIn(async (req, session) => {
        const asked = req.query.get('state') ?? 'manual_review';
        const state = (PAYMENT_STATES as readonly string[]).includes(asked) ? asked : 'manual_review';
        const rows = await services.payments.listForOperator({ state, limit: 100 });
        const enabled = services.payments.intentsEnabled();
        return { html: layout({ title: 'Payment proofs', console: session, main: paymentsView(rows, state, enabled, session) }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/payments/review',
      handler: action(async (form) => {
        const decision = required(form, 'decision');
        if (decision !== 'confirm' && decision !== 'reject') throw new AppError('invalid_request', 'decision must be confirm or reject', { field: 'decision' });
        await services.payments.review(required(form, 'payment_id'), decision, optional(form, 'note') ?? null, { acceptMismatch: form.get('accept_mismatch') === 'yes', actor: OPERATOR });
        return '/console/payments';
      }),
    },

    // ── feedback tickets (bosun feedback list|show|triage|accept|reject|apply|revert|close)
    {
      method: 'GET',
      path: '/console/feedback',
      handler: signedIn(async (req, session) => {
        const ticketId = req.query.get('ticket');
        if (ticketId) {
          const t = await services.feedback.findForOperator(ticketId);
          return { html: layout({ title: `Ticket ${t.ticket_id}`, console: session, main: ticketView(t, session) }) };
        }
        const state = optional(req.query, 'state');
        const kind = optional(req.query, 'kind');
        const rows = await services.feedback.listForOperator({
          state: state && (TICKET_STATES as readonly string[]).includes(state) ? state : undefined,
          kind: kind && (TICKET_KINDS as readonly string[]).includes(kind) ? kind : undefined,
          limit: 100,
        });
        return { html: layout({ title: 'Feedback', console: session, main: ticketsView(rows, { state, kind }) }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/feedback/step',
      handler: action(async (form) => {
        const id = required(form, 'ticket_id');
        const step = required(form, 'step') as OperatorStep;
        if (!OPERATOR_STEPS.includes(step)) throw new AppError('invalid_request', `step must be one of ${OPERATOR_STEPS.join(', ')}`, { field: 'step' });
        const publicResponse = optional(form, 'public_response');
        if (step === 'reject' && publicResponse === undefined) throw new AppError('invalid_request', 'a rejection needs a public response: the author is told why', { field: 'public_response' });
        await services.feedback.step(id, step, { publicResponse, internalNote: optional(form, 'internal_note') }, OPERATOR);
        return `/console/feedback?ticket=${encodeURIComponent(id)}`;
      }),
    },

    // ── exchange moderation (bosun exchange ban|unban|bans|hide|restore)
    {
      method: 'GET',
      path: '/console/exchange',
      handler: signedIn(async (_req, session) => {
        const [bans, kinds] = [await services.exchangeGate.bans(), services.exchangeGate.kinds()];
        return { html: layout({ title: 'Exchange moderation', console: session, main: exchangeView(bans, kinds, session) }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/exchange/hide',
      handler: action(async (form) => {
        const [kind, id] = [required(form, 'kind'), required(form, 'id')];
        if (!(await services.exchangeGate.hide(kind, id, reason(form), OPERATOR))) throw new AppError('not_found', `no ${kind} ${id}`);
        return '/console/exchange';
      }),
    },
    {
      method: 'POST',
      path: '/console/exchange/restore',
      handler: action(async (form) => {
        const [kind, id] = [required(form, 'kind'), required(form, 'id')];
        if (!(await services.exchangeGate.restore(kind, id, OPERATOR))) throw new AppError('not_found', `no ${kind} ${id}`);
        return '/console/exchange';
      }),
    },
    {
      method: 'POST',
      path: '/console/exchange/ban',
      handler: action(async (form) => {
        await services.exchangeGate.ban(required(form, 'agent_id'), reason(form), OPERATOR);
        return '/console/exchange';
      }),
    },
    {
      method: 'POST',
      path: '/console/exchange/unban',
      handler: action(async (form) => {
        const agentId = required(form, 'agent_id');
        if (!(await services.exchangeGate.unban(agentId, OPERATOR)).lifted) throw new AppError('not_found', `${agentId} is not banned`);
        return '/console/exchange';
      }),
    },

    // ── route service telemetry
    {
      method: 'GET',
      path: '/console/routes',
      handler: signedIn(async (_req, session) => {
        const quality = await services.telemetry.quality(24);
        return { html: layout({ title: 'Route service', console: session, main: routesView(quality, services.routes.status()) }) };
      }),
    },
  ];
}
