import { Type } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../kit/text-rules.js';
import { FEEDBACK_LIMITS, METRIC_NAME_PATTERN, SUBJECT_KINDS, TICKET_KINDS, TICKET_STATES } from './feedback-service.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const Body = Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.bodyBytes, description: `The explanation, 1-${FEEDBACK_LIMITS.bodyBytes} bytes (UTF-8).` });
const Title = Type.String({ minLength: 3, maxLength: 200, pattern: NO_CONTROL_CHARACTERS_PATTERN, description: 'One line, 3-200 characters.' });
const Evidence = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 500, pattern: NO_CONTROL_CHARACTERS_PATTERN }), {
    maxItems: FEEDBACK_LIMITS.evidenceItems,
    description: `Up to ${FEEDBACK_LIMITS.evidenceItems} evidence references (URLs, document names, registry entries), 1-500 characters each.`,
  }),
);
const SubjectKind = literals(SUBJECT_KINDS, 'vessel (id: IMO:…, MMSI:… or vsl_id), port (id: port_id), or route, area, dataset, metric, other (id: free text).');

export const CorrectionBody = Type.Object(
  {
    subject: Type.Object(
      {
        kind: literals(['vessel', 'port', 'area'] as const, 'vessel, port, or area (a port area: berth or anchorage, GET /v1/ports/{port_id}/areas)'),
        id: Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'A vessel: IMO:<7 digits>, MMSI:<9 digits> or vsl_id; a port: its port_id; an area: its area_key (port_id:row:col) or area_id.',
        }),
      },
      { additionalProperties: false },
    ),
    changes: Type.Array(
      Type.Object(
        {
          field: Type.String({
            minLength: 1,
            maxLength: 32,
            description: 'vessel: name, callsign, ship_type, length_m, beam_m, flag; port: name, lat, lon; area: kind (berth or anchorage), lat and lon (its new centre: the area moves), removed (1).',
          }),
          value: Type.Union([Type.String({ minLength: 1, maxLength: 80, pattern: NO_CONTROL_CHARACTERS_PATTERN }), Type.Number()], { description: 'The correct value.' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 6 },
    ),
    body: Body,
    evidence: Evidence,
  },
  { additionalProperties: false },
);

export const RequestDataBody = Type.Object(
  {
    subject: Type.Object({ kind: SubjectKind, id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    title: Title,
    body: Body,
    evidence: Evidence,
  },
  { additionalProperties: false },
);

export const ProposeMetricBody = Type.Object(
  {
    metric_name: Type.String({ pattern: METRIC_NAME_PATTERN, description: 'snake_case, 3-64 characters, starting with a letter.' }),
    title: Title,
    body: Body,
    inputs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500, pattern: NO_CONTROL_CHARACTERS_PATTERN }), { maxItems: 10, description: 'Data the metric would be computed from.' })),
    evidence: Evidence,
  },
  { additionalProperties: false },
);

export const TicketIdParams = Type.Object({ ticket_id: Type.String({ minLength: 1, maxLength: 64, description: 'The ticket_id (fbt_…) a feedback POST answered with.' }) });

export const TicketSchema = Type.Object({
  ticket_id: Type.String(),
  kind: literals(TICKET_KINDS, 'correction, request_data or propose_metric'),
  subject: Type.Object({ kind: SubjectKind, ref: Type.String({ description: 'vsl_id for a vessel, port_id for a port, the metric name, or your text.' }) }),
  title: Type.String(),
  body: Type.String(),
  evidence: Type.Array(Type.String()),
  changes: Type.Array(Type.Object({ field: Type.String(), value: Type.Union([Type.String(), Type.Number()]) }), { description: 'The corrected values (corrections only).' }),
  state: literals(
    TICKET_STATES,
    'open: waiting; triaged: seen by the operator; accepted: will be acted on; rejected: declined (see public_response); applied: the correction is served as an override; reverted: the override was withdrawn, observed values are served again; closed: done without further action.',
  ),
  public_response: Type.Union([Type.String(), Type.Null()], { description: "The operator's answer to you." }),
  overrides: Type.Array(
    Type.Object({
      field: Type.String(),
      value: Type.Union([Type.String(), Type.Number()]),
      provenance: Type.String(),
      applied_at: Type.String({ format: 'date-time' }),
      reverted_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
    { description: 'Overrides this correction became (empty until applied).' },
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
