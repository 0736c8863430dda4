import { callingAgent } from '../../http/route.js';
import { defineRoute } from '../kit/route.js';
import { IDEMPOTENCY_NOTE } from '../idempotency/idempotency-service.js';
import { FEEDBACK_LIMITS } from './feedback-service.js';
import { CorrectionBody, ProposeMetricBody, RequestDataBody, TicketIdParams, TicketSchema } from './schemas.js';

const COMMON = `The ticket is private to you and the operator; follow it with GET /v1/feedback/tickets/{ticket_id} and in your workspace events (feedback_ticket.changed). States: open → triaged → accepted or rejected → applied (corrections) or closed. At most ${FEEDBACK_LIMITS.ticketsPer24h} tickets per agent per 24 hours (feedback_daily_limit with Retry-After). ${IDEMPOTENCY_NOTE}`;
const WRITE_ERRORS = ['feedback_daily_limit', 'idempotency_key_invalid', 'idempotency_key_reused', 'conflict'] as const;

const correction = defineRoute({
  operationId: 'postFeedbackCorrection',
  description: `Reports wrong data: subject (a vessel by IMO/MMSI/vsl_id, or a port by port_id), changes (field and correct value: vessel name, callsign, ship_type, length_m, beam_m, flag; port name, lat, lon), an explanation and evidence. When the operator accepts and applies it, the value is served as an override with the quality flag operator_corrected and its provenance in the record's corrections; the observed data is kept and comes back if the override is reverted. ${COMMON}`,
  body: CorrectionBody,
  response: TicketSchema,
  successStatus: 201,
  errors: ['vessel_not_found', 'invalid_vessel_id', 'port_not_found', 'correction_markup_refused', ...WRITE_ERRORS],
  idempotencyKey: true,
  examples: [
    {
      summary: "Correct a vessel's name",
      body: {
        subject: { kind: 'vessel', id: 'IMO:9321483' },
        changes: [{ field: 'name', value: 'EVER GIVEN' }],
        body: 'The AIS static report carries a truncated name.',
        evidence: ['https://example.org/registry/9321483'],
      },
      requires: 'a vessel this service has observed (find one with GET /v1/vessels/search)',
    },
  ],
  async handler({ body }, call) {
    return { data: await call.services.feedback.correction(callingAgent(call).agentId, body) };
  },
});

const requestData = defineRoute({
  operationId: 'postFeedbackRequestData',
  description: `Asks for data this service does not have or does not serve well: a subject (vessel, port, route, area, dataset, metric or other), a title and the request. ${COMMON}`,
  body: RequestDataBody,
  response: TicketSchema,
  successStatus: 201,
  errors: ['vessel_not_found', 'invalid_vessel_id', 'port_not_found', ...WRITE_ERRORS],
  idempotencyKey: true,
  examples: [{ summary: 'Ask for an area', body: { subject: { kind: 'area', id: 'Baltic Sea' }, title: 'Ice conditions in the Baltic', body: 'Please add sea ice extent to the route conditions.' } }],
  async handler({ body }, call) {
    return { data: await call.services.feedback.requestData(callingAgent(call).agentId, body) };
  },
});

const proposeMetric = defineRoute({
  operationId: 'postFeedbackProposeMetric',
  description: `Proposes a new metric: metric_name (snake_case), title, its definition in body, the inputs it needs and evidence. ${COMMON}`,
  body: ProposeMetricBody,
  response: TicketSchema,
  successStatus: 201,
  errors: [...WRITE_ERRORS],
  idempotencyKey: true,
  examples: [
    {
      summary: 'Propose a metric',
      body: {
        metric_name: 'anchorage_dwell_p90',
        title: 'Anchorage dwell time, 90th percentile',
        body: 'Per port and week, the 90th percentile of time spent at anchor before berthing.',
        inputs: ['port calls'],
      },
    },
  ],
  async handler({ body }, call) {
    return { data: await call.services.feedback.proposeMetric(callingAgent(call).agentId, body) };
  },
});

const ticket = defineRoute({
  operationId: 'getFeedbackTicketsByTicketId',
  description:
    "Returns one of your feedback tickets with its state, the operator's public response and the overrides a correction became. Another agent's ticket_id answers feedback_ticket_not_found, exactly like a missing one.",
  params: TicketIdParams,
  response: TicketSchema,
  errors: ['feedback_ticket_not_found'],
  examples: [{ summary: 'One of my tickets', params: { ticket_id: 'fbt_0123456789abcdef0123' }, requires: 'a ticket_id from one of your feedback POSTs; replace the example id' }],
  async handler({ params }, call) {
    return { data: await call.services.feedback.getOwn(callingAgent(call).agentId, params.ticket_id) };
  },
});

export const feedbackRoutes = [correction, requestData, proposeMetric, ticket];
