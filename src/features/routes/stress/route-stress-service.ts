import type { Caller } from '../../../access/principals.js';
import { DAY, HOUR, iso, type Clock } from '../../../platform/clock.js';
import { CHOKEPOINTS, type Chokepoint } from '../../../events/chokepoints.js';
import { percentile } from '../../../platform/stats.js';
import { routeStressIndex, type StressComponentName, type StressInput } from '../../../events/route-stress.js';
import type { FleetReads } from '../../../fleet/fleet-reads.js';
import { distanceM } from '../../../geo/distance.js';
import { AppError } from '../../../platform/errors.js';
import type { EventsService } from '../../events/events-service.js';
import { parseRange } from '../../kit/time-window.js';
import { OPERATOR_CORRECTED_FLAG } from '../../kit/override-fields.js';
import type { PortRecord } from '../../ports/port-table.js';
import { readPortTableFile } from '../../ports/port-table-file.js';
import { passageByName } from '../../../routing/graph.js';
import { RoutingError } from '../../../routing/engine.js';
import { shippedSeaNetwork, type LoadedSeaNetwork } from '../../../routing/network-file.js';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import type { TransitSums } from '../corridors/corridor-stats.js';
import { byVessel, detourMeasure, MAX_VOYAGE_MS, strictStoppedMs, voyagesOf, type DetourMeasure, type Voyage } from './stress-measures.js';
import type { StressRepo } from './stress-repo.js';

export const STRESS_DEFAULT_RANGE_MS = 7 * DAY;
export const STRESS_MAX_RANGE_MS = 30 * DAY;
/** Baselines are means over this many windows of the range length before it (docs/decisions/031). */
export const BASELINE_WINDOWS = 4;
/** Ports and encounters within this distance of a gate centre count as near the gate (at least the gate radius). */
export const NEAR_GATE_KM = 100;

/**
 * A port pair is routed only when going by the gate is at most this many times their great-circle
 * distance plus DETOUR_SLACK_KM: a route through the gate is at least the way to it and on, and no sea
 * route is 3 times the great circle, so pairs beyond cannot cross it and cost no routing.
 */
const DETOUR_FACTOR = 3;
const DETOUR_SLACK_KM = 200;
/** Port pairs whose crossing of a passage is remembered (cleared when the port table changes). */
const ROUTED_PAIRS_MAX = 50_000;

interface WindowMeasures {
  from: number;
  to: number;
  transits: number;
  meanSpeedKn: number | null;
  stoppedHoursPerTransit: number | null;
  medianWaitHours: number | null;
  encounters: number;
  /** Detours of the voyages that arrived in the window; null when the gate is no passage of the sea network. */
  detours: DetourMeasure | null;
  /** Some event behind the measures comes from simulated positions (the demo fleet). */
  simulated: boolean;
}

/** Newest event time per measure in the range. */
interface Newest {
  transit: number | null;
  call: number | null;
  encounter: number | null;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const newestOf = (times: number[]) => (times.length ? Math.max(...times) : null);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * The route stress index of a chokepoint (docs/decisions/023, 031): the measures of src/events/route-stress.ts
 * taken from the event store over the range ending at the caller's horizon and over the windows before it.
 */
export function createRouteStressService(deps: {
  events: EventsService;
  /** Per gate, the sums of the transits that left it in each window between consecutive bounds, from the transit cells (the corridors' read, docs/decisions/155). */
  transitSums: { windowSums(zones: readonly string[], bounds: readonly number[]): Promise<Map<string, TransitSums[]>> };
  repo: StressRepo;
  fleetReads: Pick<FleetReads, 'usableByTime'>;
  clock: Clock;
  ports?: () => readonly PortRecord[];
  network?: () => LoadedSeaNetwork;
}) {
  const network = deps.network ?? shippedSeaNetwork;
  let shipped: readonly PortRecord[] | null = null;
  /** The served port table (with operator corrections); the shipped file when no ports service is given. */
  const portTable = () => (deps.ports ? deps.ports() : (shipped ??= readPortTableFile().ports));
  let nearbyOf: readonly PortRecord[] | null = null;
  const nearby = new Map<string, Array<{ port: PortRecord; distanceKm: number }>>();
  const nearKm = (gate: Chokepoint) => Math.max(NEAR_GATE_KM, gate.radiusKm);

  function portsNear(gate: Chokepoint) {
    const table = portTable();
    // a new table (an import, a correction applied or reverted) moves ports: the nearby lists are measured again
    if (nearbyOf !== table) {
      nearby.clear();
      nearbyOf = table;
    }
    let found = nearby.get(gate.key);
    if (!found) {
      const limitM = nearKm(gate) * 1000;
      found = table
        .filter((p) => Math.abs(p.lat - gate.lat) <= nearKm(gate) / 100)
        .map((port) => ({ port, distanceKm: distanceM(gate.lat, gate.lon, port.lat, port.lon) / 1000 }))
        .filter((p) => p.distanceKm * 1000 <= limitM)
        .sort((a, b) => a.distanceKm - b.distanceKm);
      nearby.set(gate.key, found);
    }
    return found;
  }

  let routedOf: readonly PortRecord[] | null = null;
  let portsById = new Map<number, PortRecord>();
  const routedPairs = new Map<string, boolean | null>();

  /** Whether the engine's shortest route between the voyage's ports crosses the passage (null: a port unknown or no route). */
  function routedThrough(gate: Chokepoint, passage: string, voyage: Voyage): boolean | null {
    const table = portTable();
    if (routedOf !== table || routedPairs.size >= ROUTED_PAIRS_MAX) {
      routedPairs.clear();
      routedOf = table;
      portsById = new Map(table.map((p) => [p.port_id, p]));
    }
    const key = `${passage}:${voyage.fromPort}>${voyage.toPort}`;
    if (routedPairs.has(key)) return routedPairs.get(key)!;
    const [a, b] = [portsById.get(voyage.fromPort), portsById.get(voyage.toPort)];
    let crosses: boolean | null = null;
    if (a && b) {
      const viaGateKm = (distanceM(a.lat, a.lon, gate.lat, gate.lon) + distanceM(gate.lat, gate.lon, b.lat, b.lon)) / 1000;
      if (viaGateKm > DETOUR_FACTOR * (distanceM(a.lat, a.lon, b.lat, b.lon) / 1000) + DETOUR_SLACK_KM) crosses = false;
      else {
        const { engine } = network();
        try {
          crosses = engine.route([a, b], { excludedMask: engine.passageMask([]) }).passages.some((p) => p.id === passage);
        } catch (error) {
          if (!(error instanceof RoutingError)) throw error;
        }
      }
    }
    routedPairs.set(key, crosses);
    return crosses;
  }

  /** Detours of the voyages arriving in each window: only the gate's transits by vessels of a voyage routed through it are read. */
  async function detoursOf(gate: Chokepoint, passage: string, windows: ReadonlyArray<{ from: number; to: number }>, oldest: number, to: number) {
    const arrivedIn = (v: Voyage, w: { from: number; to: number }) => v.arrived > w.from && v.arrived <= w.to;
    const voyages = voyagesOf(await deps.events.reads.callSpansArrivedBetween(oldest - MAX_VOYAGE_MS, to + 1));
    const routed = voyages.filter((v) => v.arrived > oldest && v.arrived <= to && routedThrough(gate, passage, v) === true);
    const transits = routed.length ? await deps.repo.transitsOfVessels(gate.key, [...new Set(routed.map((v) => v.vslId))], oldest - MAX_VOYAGE_MS, to) : [];
    return windows.map((w) => detourMeasure({ voyages: voyages.filter((v) => arrivedIn(v, w)), routedThroughGate: (v) => routedThrough(gate, passage, v), transits }));
  }

  /**
   * Each window's measures (windows[0] is the range, then the baseline windows going back) and the newest event
   * of the range per measure. Transit counts, speeds and stopped time come from the transit cells (decision 159).
   */
  async function measure(gate: Chokepoint, to: number, rangeMs: number): Promise<{ windows: WindowMeasures[]; newest: Newest }> {
    const oldest = to - (BASELINE_WINDOWS + 1) * rangeMs;
    const windows = Array.from({ length: BASELINE_WINDOWS + 1 }, (_, k) => ({ from: to - (k + 1) * rangeMs, to: to - k * rangeMs }));
    const inWindow = (t: number, w: { from: number; to: number }) => t > w.from && t <= w.to;

    // the cells' windows run oldest first: windows[k] is sums[BASELINE_WINDOWS - k]
    const sums = (await deps.transitSums.windowSums([gate.key], [oldest, ...[...windows].reverse().map((w) => w.to)])).get(gate.key)!;
    // calls from a voyage's length before the oldest window: a call overlapping a transit in it may have begun then
    const stopped = await deps.repo.stoppedInCalls(gate.key, { from: oldest, to }, { from: oldest - MAX_VOYAGE_MS, to: to + 1 });
    const callsOf = byVessel(stopped.calls);
    const inPort = stopped.transits.map((t) => ({ exited: t.exited_at, ms: t.stopped_ms - strictStoppedMs(t, callsOf.get(t.vsl_id) ?? []) }));
    const passageName = CHOKEPOINT_PASSAGES[gate.key];
    const passage = passageName ? (passageByName(passageName)?.id ?? null) : null;
    const detours = passage === null ? null : await detoursOf(gate, passage, windows, oldest, to);
    const calls = await deps.events.reads.callsDepartedAt(
      portsNear(gate).map((p) => p.port.port_id),
      oldest,
      to,
    );
    const degLat = nearKm(gate) / 111;
    const degLon = degLat / Math.max(0.1, Math.cos((gate.lat * Math.PI) / 180));
    const encounters = (await deps.events.reads.encountersInBox({ minLat: gate.lat - degLat, maxLat: gate.lat + degLat, minLon: gate.lon - degLon, maxLon: gate.lon + degLon }, oldest, to)).filter(
      (e) => distanceM(gate.lat, gate.lon, e.lat, e.lon) <= nearKm(gate) * 1000,
    );

    const measured = windows.map((w, k) => {
      const ts = sums[BASELINE_WINDOWS - k]!;
      const inPortMs = inPort.filter((t) => inWindow(t.exited, w)).reduce((sum, t) => sum + t.ms, 0);
      const done = calls.filter((c) => inWindow(c.departure!, w));
      const waits = done.map((c) => c.anchorage_ms).sort((a, b) => a - b);
      const median = percentile(waits, 50);
      const es = encounters.filter((e) => inWindow(e.end_at, w));
      return {
        ...w,
        transits: ts.transits,
        // the mean of speeds in tenths of a knot, rounded once (decision 159)
        meanSpeedKn: ts.speeds ? Math.round((ts.speedTenths * 100) / ts.speeds) / 1000 : null,
        stoppedHoursPerTransit: ts.transits ? round3((ts.stoppedMs - inPortMs) / ts.transits / HOUR) : null,
        medianWaitHours: median === null ? null : round3(median / HOUR),
        encounters: es.length,
        detours: detours === null ? null : detours[k]!,
        simulated: ts.simulated > 0 || done.some((c) => c.simulated === 1) || es.some((e) => e.simulated === 1),
        done,
        es,
      };
    });
    const current = measured[0]!;
    const newest = {
      transit: await deps.repo.newestExit(gate.key, current.from, current.to),
      call: newestOf(current.done.map((c) => c.departure!)),
      encounter: newestOf(current.es.map((e) => e.end_at)),
    };
    return { windows: measured.map(({ done: _done, es: _es, ...w }) => w), newest };
  }

  return {
    async index(caller: Caller, query: { zone_key: string; range?: string }) {
      const gate = CHOKEPOINTS.find((c) => c.key === query.zone_key.trim().toLowerCase());
      if (!gate) throw new AppError('unknown_zone', `zone_key must be one of ${CHOKEPOINTS.map((c) => c.key).join(', ')}`, { field: 'query.zone_key' });
      const rangeMs = query.range !== undefined ? parseRange(query.range, 'range', STRESS_MAX_RANGE_MS) : STRESS_DEFAULT_RANGE_MS;
      const now = deps.clock.now();
      const to = deps.events.horizon(caller);
      const analysed = await deps.events.analysedUpTo();
      const seenUpTo = analysed === null ? null : Math.min(analysed, to);
      const oldestPosition = (await deps.fleetReads.usableByTime(0, to, null, 1))[0]?.observed_at ?? null;

      const { windows, newest } = await measure(gate, to, rangeMs);
      const [current, ...before] = windows as [WindowMeasures, ...WindowMeasures[]];
      // a baseline window counts only when the stored positions cover it from its start (the day they begin counts: kit/time-window.ts coverageOf)
      const covered = oldestPosition === null ? [] : before.filter((w) => w.from >= Math.floor(oldestPosition / DAY) * DAY);
      const noBaseline = oldestPosition === null ? 'no stored positions to compare with' : `no baseline: the stored positions begin ${iso(oldestPosition)}, less than one full window before the range`;
      const age = (newest: number | null) => (seenUpTo === null ? null : Math.max(0, Math.round((now - (newest ?? seenUpTo)) / 1000)));

      const input = (value: (w: WindowMeasures) => number | null, newest: number | null, emptyNote: string): StressInput => {
        if (seenUpTo === null) return { value: null, baseline: null, dataAgeSeconds: null, note: 'the event detector has not analysed any positions yet' };
        const v = value(current);
        const values = covered.map(value).filter((x): x is number => x !== null);
        const baseline = values.length ? round3(mean(values)!) : null;
        const note =
          v === null
            ? emptyNote
            : covered.length === 0
              ? noBaseline
              : baseline === null
                ? `no baseline: ${emptyNote.replace(' in the window', ' in the baseline windows')}`
                : baseline === 0
                  ? 'baseline is 0: no ratio to compare with'
                  : undefined;
        return { value: v, baseline, dataAgeSeconds: age(newest), ...(note !== undefined ? { note } : {}) };
      };

      const inputs: Record<StressComponentName, StressInput> = {
        transit_volume: input((w) => w.transits, newest.transit, 'no transits in the window'),
        gate_speed: input((w) => w.meanSpeedKn, newest.transit, 'no transits with speeds in the window'),
        gate_waiting: input((w) => w.stoppedHoursPerTransit, newest.transit, 'no transits in the window'),
        port_congestion: input((w) => w.medianWaitHours, newest.call, `no completed calls in the window at ports within ${nearKm(gate)} km`),
        detours:
          current.detours === null
            ? { value: null, baseline: null, dataAgeSeconds: null, note: `${gate.name} is not a passage of the sea network: no route can be said to cross it` }
            : input((w) => w.detours?.share ?? null, current.detours.newestArrival, 'no voyage in the window whose shortest route crosses the gate'),
        sts_activity: input((w) => w.encounters, newest.encounter, 'no encounters in the window'),
      };
      const stress = routeStressIndex(inputs);
      const oldestCovered = covered[covered.length - 1];
      return {
        data: {
          zone: { key: gate.key, name: gate.name, lat: gate.lat, lon: gate.lon, radius_km: gate.radiusKm },
          window: { from: iso(current.from), to: iso(current.to) },
          baseline: { from: iso(oldestCovered?.from ?? current.from), to: iso(current.from), windows: covered.length },
          ...stress,
          detour_voyages: current.detours === null ? null : { expected: current.detours.expected, avoided: current.detours.avoided },
          nearby_ports: portsNear(gate).map((p) => ({ port_id: p.port.port_id, name: p.port.name, distance_km: Math.round(p.distanceKm * 10) / 10 })),
          data_from: oldestPosition === null ? null : iso(oldestPosition),
          analysed_up_to: seenUpTo === null ? null : iso(seenUpTo),
        },
        freshnessSeconds: seenUpTo === null ? 0 : Math.max(0, Math.round((now - seenUpTo) / 1000)),
        qualityFlags: [
          ...([current, ...covered].some((w) => w.simulated || w.detours?.simulated) ? ['simulated_source'] : []),
          ...(portsNear(gate).some((p) => p.port.corrections?.length) ? [OPERATOR_CORRECTED_FLAG] : []),
        ],
      };
    },
  };
}
export type RouteStressService = ReturnType<typeof createRouteStressService>;
