import { Type } from '@sinclair/typebox';
import { RANGE_PATTERN } from '../../kit/time-window.js';
import { Nullable } from '../../kit/schema-kit.js';

export const RouteStressQuery = Type.Object(
  {
    zone_key: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'Chokepoint key: suez, panama, bosporus, bab_el_mandeb, malacca, hormuz, cape_of_good_hope, gibraltar, dover, oresund, taiwan_strait, lombok.',
    }),
    range: Type.Optional(Type.String({ pattern: RANGE_PATTERN, description: 'Window back from your horizon: 24H, 7D, 30D (default 7D, at most 30D).' })),
  },
  { additionalProperties: false },
);

const Component = Type.Object({
  name: Type.Union(['transit_volume', 'gate_speed', 'gate_waiting', 'port_congestion', 'detours', 'sts_activity'].map((n) => Type.Literal(n))),
  unit: Type.String(),
  value: Nullable(Type.Number(), 'The measure in the window.'),
  baseline: Nullable(Type.Number(), 'The same measure, mean over the baseline windows.'),
  stress: Nullable(Type.Number({ minimum: 0, maximum: 1 }), '0 (as usual) to 1 (full stress).'),
  weight: Type.Number(),
  data_age_seconds: Nullable(Type.Integer(), 'Age of the newest observation behind the value.'),
  available: Type.Boolean({ description: 'Measured with a baseline: counts in the index.' }),
  note: Nullable(Type.String(), 'Why the component is unavailable.'),
});

export const RouteStressData = Type.Object({
  zone: Type.Object({ key: Type.String(), name: Type.String(), lat: Type.Number(), lon: Type.Number(), radius_km: Type.Number({ description: 'Radius of the gate (transits).' }) }),
  window: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'The range, ending at your horizon.' }),
  baseline: Type.Object(
    {
      from: Type.String(),
      to: Type.String(),
      windows: Type.Integer({ description: 'Windows of the range length before it that the stored data covers (at most 4).' }),
    },
    { description: 'The windows the baselines are means over.' },
  ),
  index: Nullable(Type.Number({ minimum: 0, maximum: 100 }), '0-100: weighted mean of the available components’ stress; null when none is available.'),
  level: Nullable(Type.Union([Type.Literal('low'), Type.Literal('elevated'), Type.Literal('high'), Type.Literal('severe')])),
  weight_measured: Type.Number({ description: 'Sum of the weights of the available components (1 when all are).' }),
  components: Type.Array(Component),
  nearby_ports: Type.Array(Type.Object({ port_id: Type.Integer(), name: Type.String(), distance_km: Type.Number() }), {
    description: 'Ports whose calls make port_congestion (within 100 km of the gate centre).',
  }),
  detour_voyages: Nullable(
    Type.Object({
      expected: Type.Integer({ minimum: 0, description: 'Voyages that arrived in the range whose shortest sea route crosses the gate.' }),
      avoided: Type.Integer({ minimum: 0, description: 'Of those, voyages whose vessel made no transit of the gate between the two calls.' }),
    }),
    'The voyages behind detours; null when the gate is no passage of the sea network.',
  ),
  data_from: Nullable(Type.String(), 'Observation time of the oldest stored position (baseline windows before it are not used).'),
  analysed_up_to: Nullable(Type.String(), 'Observation time of the newest position the detector has analysed (at most your horizon).'),
});
