import { Type } from '@sinclair/typebox';
import { FUEL_METHOD } from '../fuel.js';
import { PASSAGES } from '../../../routing/graph.js';
import { DEFAULT_SPEED_KN, MAX_VIAS, SHIP_TYPES, ShipSize, shipSizeParams } from '../schemas.js';
import { CoverageFields, Nullable } from '../../kit/schema-kit.js';

/** Pairs one summary request may list. */
export const SUMMARY_MAX_PAIRS = 10;
/** Pairs one portfolio request may list. */
export const PORTFOLIO_MAX_PAIRS = 25;
/** Pairs one scenario request may list (each is routed twice), and how many busiest pairs it takes when none are given. */
export const SCENARIO_MAX_PAIRS = 10;
/** Summaries kept in memory per process (all agents together), least recently computed dropped first. */
export const SUMMARY_MEMORY = 2000;
export const LATEST_MAX_LIMIT = 50;

const PLACE = 'a port_id (e.g. 31140), a UN/LOCODE (NLRTM) or lat,lon';
const PASSAGE_LIST = PASSAGES.map((p) => p.id).join(', ');

const from = Type.String({ minLength: 1, maxLength: 40, description: `Origin: ${PLACE}.` });
const to = Type.String({ minLength: 1, maxLength: 40, description: `Destination: ${PLACE}.` });
const speedKn = Type.Optional(
  Type.Number({
    minimum: 1,
    maximum: 40,
    description: `Speed, knots. Default by ship_type: ${Object.entries(DEFAULT_SPEED_KN)
      .map(([t, s]) => `${t} ${s}`)
      .join(', ')} (other when no ship_type).`,
  }),
);
const shipType = Type.Optional(
  Type.Union(
    SHIP_TYPES.map((t) => Type.Literal(t)),
    { description: 'Ship type: sets the default speed.' },
  ),
);
const closed = (required: boolean) => {
  const schema = Type.String({
    minLength: required ? 1 : 0,
    maxLength: 300,
    description: `Passages closed, comma-separated: ${PASSAGE_LIST}; the event layer's chokepoint keys are accepted too (bab_el_mandeb, cape_of_good_hope). oresund, taiwan_strait and lombok are not passages of the network and are refused.`,
  });
  return required ? schema : Type.Optional(schema);
};
const pairs = (max: number, required: boolean) => {
  const schema = Type.String({
    minLength: 1,
    maxLength: 2000,
    description: `Origin–destination pairs: origin:destination, separated by ; (each place ${PLACE}), e.g. NLRTM:SGSIN;USHOU:NLRTM. At most ${max}.`,
  });
  return required ? schema : Type.Optional(schema);
};

export const WhatIfQuery = Type.Object(
  {
    from,
    to,
    via: Type.Optional(Type.String({ minLength: 1, maxLength: 600, description: `Places to pass through in order, separated by ; (each ${PLACE}), at most ${MAX_VIAS}.` })),
    closed: closed(true),
    speed_kn: speedKn,
    ship_type: shipType,
    ...shipSizeParams,
  },
  { additionalProperties: false },
);

export const ExplainQuery = Type.Object({ from, to, speed_kn: speedKn, ship_type: shipType }, { additionalProperties: false });

export const SummaryQuery = Type.Object({ pairs: pairs(SUMMARY_MAX_PAIRS, true), speed_kn: speedKn, ship_type: shipType }, { additionalProperties: false });

export const SummaryLatestQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LATEST_MAX_LIMIT, default: 10, description: `Summaries to return, newest first (1–${LATEST_MAX_LIMIT}, default 10).` })) },
  { additionalProperties: false },
);

export const PortfolioQuery = Type.Object({ pairs: pairs(PORTFOLIO_MAX_PAIRS, true), speed_kn: speedKn, ship_type: shipType }, { additionalProperties: false });

export const ScenarioQuery = Type.Object(
  {
    pairs: pairs(SCENARIO_MAX_PAIRS, false),
    closed: closed(false),
    speed_kn: Type.Optional(Type.Number({ minimum: 1, maximum: 40, description: 'Scenario speed, knots (the baseline sails at the ship_type default). Not with speed_factor.' })),
    speed_factor: Type.Optional(Type.Number({ minimum: 0.3, maximum: 2, description: 'Scenario speed as a factor of the baseline speed (e.g. 0.8 for slow steaming). Not with speed_kn.' })),
    ship_type: shipType,
  },
  { additionalProperties: false },
);

const PortRef = Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()) }), 'The port, when the place is one.');

const RouteFigures = {
  distance_nm: Type.Number({ description: 'Nautical miles (1,852 m) over the sea network plus the connectors.' }),
  duration_hours: Type.Number({ description: 'Time at sea at speed_kn (no port, canal or weather time).' }),
  duration_days: Type.Number(),
  fuel_t: Type.Number({ description: `Estimated main-engine fuel, tonnes, for the reference ship of ship_type at speed_kn. ${FUEL_METHOD}` }),
  co2_t: Type.Number({ description: 'Estimated CO2 from that fuel, tonnes (fuel_t x Cf).' }),
  passages: Type.Array(Type.String(), { description: 'Passages crossed, in order.' }),
};
const RouteFiguresSchema = Type.Object(RouteFigures);

const Speed = {
  speed_kn: Type.Number(),
  speed_source: Type.Union([Type.Literal('speed_kn'), Type.Literal('ship_type_default')]),
  ship_type: Type.Union(SHIP_TYPES.map((t) => Type.Literal(t))),
};

const Delta = Type.Object({
  distance_nm: Type.Number({ description: 'Closure route minus baseline.' }),
  distance_pct: Type.Number({ description: 'Of the baseline distance.' }),
  hours: Type.Number(),
  days: Type.Number(),
  fuel_t: Type.Number({ description: 'Estimated fuel difference, tonnes (negative: saved).' }),
  co2_t: Type.Number({ description: 'Estimated CO2 difference, tonnes.' }),
});

export const WhatIfData = Type.Object({
  from: Type.String(),
  to: Type.String(),
  via: Type.Array(Type.String()),
  ...Speed,
  closed: Type.Array(Type.String(), { description: 'The closed passages, as engine ids.' }),
  ship_size: Nullable(ShipSize),
  baseline: RouteFiguresSchema,
  with_closures: RouteFiguresSchema,
  added: Delta,
  now_uses: Type.Array(Type.String(), { description: 'Passages the route under the closures crosses and the baseline does not.' }),
  closures: Type.Array(
    Type.Object({
      passage: Type.String(),
      name: Type.String(),
      mattered: Type.Boolean({ description: 'The baseline route crosses it, so closing it forces a detour; false: closing it changes nothing for this route.' }),
    }),
  ),
  note: Type.String({ description: 'What changed, in one sentence.' }),
});

export const ExplainData = Type.Object({
  from: Type.String(),
  to: Type.String(),
  ...Speed,
  ...RouteFigures,
  passages_detail: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), kind: Type.String(), at_nm: Type.Number(), lat: Type.Number(), lon: Type.Number() })),
  segments: Type.Array(
    Type.Object({
      from: Type.String({ description: 'origin or the passage the stretch starts at.' }),
      to: Type.String({ description: 'The passage the stretch ends at, or destination.' }),
      start_nm: Type.Number(),
      end_nm: Type.Number(),
      distance_nm: Type.Number(),
    }),
    { description: 'The ocean and coastal stretches between passages (a stretch ends where the route enters the next passage).' },
  ),
  alternatives: Type.Array(
    Type.Object({
      without: Type.String({ description: 'The passage of the chosen route this alternative avoids.' }),
      distance_nm: Type.Number(),
      extra_nm: Type.Number(),
      extra_pct: Type.Number(),
      extra_hours: Type.Number(),
      passages: Type.Array(Type.String()),
    }),
    { description: 'For each passage the chosen route crosses, the best route avoiding it, cheapest first.' },
  ),
  unavoidable: Type.Array(Type.String(), { description: 'Passages of the chosen route without which there is no route at all.' }),
  avoided_by_default: Type.Array(Type.String(), { description: 'Passages never considered (Arctic, Corinth).' }),
  reason: Type.String({ description: 'Why the chosen route wins.' }),
});

const SummaryItem = Type.Object({
  from: Type.String(),
  to: Type.String(),
  from_port: PortRef,
  to_port: PortRef,
  ...Speed,
  ...RouteFigures,
  computed_at: Type.String({ format: 'date-time' }),
});

export const SummaryData = Type.Object({ summaries: Type.Array(SummaryItem), max_pairs: Type.Integer() });

export const SummaryLatestData = Type.Object({
  summaries: Type.Array(Type.Object({ ...SummaryItem.properties, age_seconds: Type.Number({ description: 'Seconds since it was computed.' }) })),
  kept: Type.Integer({ description: 'Summaries of the calling agent held in this process.' }),
});

const PairError = Nullable(Type.Object({ code: Type.String(), message: Type.String(), field: Type.String() }), 'Why this pair has no result (null when it has one).');

export const PortfolioData = Type.Object({
  pairs: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'Position in pairs (0-based).' }),
      from: Type.String(),
      to: Type.String(),
      result: Nullable(Type.Object({ from_port: PortRef, to_port: PortRef, ...RouteFigures })),
      error: PairError,
    }),
  ),
  ...Speed,
  totals: Type.Object({
    pairs: Type.Integer(),
    routed: Type.Integer(),
    failed: Type.Integer(),
    distance_nm: Type.Number({ description: 'Over the routed pairs.' }),
    duration_hours: Type.Number(),
    duration_days: Type.Number(),
    fuel_t: Type.Number({ description: 'Estimated, over the routed pairs.' }),
    co2_t: Type.Number(),
    passages: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), pairs: Type.Integer({ description: 'Routed pairs crossing it.' }) }), { description: 'Most used first.' }),
  }),
  max_pairs: Type.Integer(),
});

const ScenarioFigures = Type.Object({ ...RouteFigures, speed_kn: Type.Number() });

export const ScenarioData = Type.Object({
  pairs_source: Type.Union([Type.Literal('query'), Type.Literal('busiest_port_pairs')], {
    description: 'query: the pairs given; busiest_port_pairs: the most frequent consecutive port calls of vessels in the event store over the last 30 days.',
  }),
  window: Nullable(
    Type.Object({ since: Type.String({ format: 'date-time' }), until: Type.String({ format: 'date-time' }), days: Type.Integer(), ...CoverageFields }),
    "The window the busiest pairs were counted over: top-lanes' default window (voyages that departed in it and arrived before until), with the days the stored port calls cover.",
  ),
  closed: Type.Array(Type.String()),
  ship_type: Type.Union(SHIP_TYPES.map((t) => Type.Literal(t))),
  baseline_speed_kn: Type.Number(),
  scenario_speed_kn: Type.Number(),
  pairs: Type.Array(
    Type.Object({
      index: Type.Integer(),
      from: Type.String(),
      to: Type.String(),
      voyages: Nullable(Type.Integer(), 'Consecutive calls counted for this pair (busiest_port_pairs only).'),
      baseline: Nullable(ScenarioFigures),
      scenario: Nullable(ScenarioFigures),
      delta: Nullable(Delta),
      error: PairError,
    }),
  ),
  totals: Type.Object({
    routed: Type.Integer({ description: 'Pairs with both a baseline and a scenario route (the totals cover these).' }),
    failed: Type.Integer(),
    baseline_nm: Type.Number(),
    scenario_nm: Type.Number(),
    baseline_hours: Type.Number(),
    scenario_hours: Type.Number(),
    baseline_fuel_t: Type.Number({ description: 'Estimated, at the baseline speed.' }),
    scenario_fuel_t: Type.Number({ description: 'Estimated, at the scenario speed: slower steaming burns less fuel per mile (power ~ speed^3).' }),
    delta: Delta,
  }),
});
