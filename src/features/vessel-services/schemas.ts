import { Type } from '@sinclair/typebox';
import { PositionSummary, SERVICE_VESSEL_IDENTITY, TrackPoint, VesselSelectorQuery } from '../vessels/schemas.js';
import { Nullable } from '../kit/schema-kit.js';

const DateTime = () => Type.String({ format: 'date-time' });

export const SnapshotQuery = VesselSelectorQuery;

export const HistoryQuery = Type.Composite(
  [
    VesselSelectorQuery,
    Type.Object({
      from: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Start (ISO 8601 or epoch seconds/ms); default: to − 24 h.' })),
      to: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'End (ISO 8601 or epoch seconds/ms); default: now. The range is at most 7 days.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, default: 500, description: 'Positions per page, 1-2000 (default 500).' })),
      cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page (same vessel and range).' })),
    }),
  ],
  { additionalProperties: false },
);

export const Correction = Type.Object({
  field: Type.String(),
  value: Type.Union([Type.String(), Type.Number()]),
  ticket_id: Type.String(),
  provenance: Type.String({ description: 'e.g. "corrected by the operator from feedback ticket fbt_…".' }),
  applied_at: DateTime(),
});

export const ServiceVessel = Type.Object({
  ...SERVICE_VESSEL_IDENTITY,
  length_m: Nullable(Type.Number()),
  beam_m: Nullable(Type.Number()),
  corrections: Type.Array(Correction, { description: 'Fields served from an operator correction instead of the observed value (quality flag operator_corrected).' }),
});

const Timeline = {
  port_calls: Type.Array(Type.Object({ port_id: Type.Integer(), port_name: Nullable(Type.String()), arrival: DateTime(), departure: Nullable(DateTime(), 'null while the call goes on.') })),
  transits: Type.Array(Type.Object({ zone: Type.String(), direction: Type.String(), entered_at: DateTime(), exited_at: DateTime() })),
  encounters: Type.Array(Type.Object({ other_vsl_id: Type.String(), start_at: DateTime(), end_at: DateTime(), lat: Type.Number(), lon: Type.Number(), zone: Nullable(Type.String()) })),
};

const Entitlement = Type.Object({
  source: Type.Union([Type.Literal('operator_grant'), Type.Literal('snapshot_trial')], { description: 'What entitles you to this vessel.' }),
  expires_at: Nullable(DateTime(), 'When an operator grant ends (trial: see GET /v1/agents/me for the scope expiry).'),
});

export const SnapshotData = Type.Object({
  vessel: ServiceVessel,
  position: Nullable(PositionSummary, 'The newest usable position (live); null when none.'),
  voyage: Type.Object({
    destination: Nullable(Type.String()),
    eta: Nullable(Type.String()),
    draught_m: Nullable(Type.Number()),
    nav_status: Nullable(Type.Integer()),
  }),
  recent_events: Type.Object({ since: DateTime(), ...Timeline }),
  entitlement: Entitlement,
  generated_at: DateTime(),
});

export const HistoryData = Type.Object({
  vessel: ServiceVessel,
  from: DateTime(),
  to: DateTime(),
  positions: Type.Array(TrackPoint),
  next_cursor: Nullable(Type.String()),
  events: Type.Object(Timeline),
  entitlement: Entitlement,
});
