import { categoryOf } from '../../../events/voyage-cells.js';
import { HOUR } from '../../../platform/clock.js';
import { HoursSketch, VesselSketch } from '../../../platform/sketches.js';
import { sameHarbour, tooFast } from '../../../events/lane-rule.js';
import type { LeftOut } from './lanes-facts.js';
import type { Voyage } from './lanes-math.js';

/**
 * The lanes of a window summed from voyage cells (docs/decisions/149): per lane its voyages, simulated
 * voyages, distinct vessels and hours, exact while every cell read was exact. Pure: no store, no clock.
 */

/** A voyage of an exact part: what the summed lane views use of it. */
export interface PartVoyage {
  vslId: string;
  hours: number;
  simulated: boolean;
}

/** A voyage of an exact part with when it departed and its ship category: what the answers bucketed by period or category split on. */
export interface DatedPartVoyage extends PartVoyage {
  departure: number;
  category: string;
}

/** An approximate cell (or lane cells merged), whole in the window. */
export interface ApproximatePart {
  voyages: number;
  /** Of the voyages, those the lanes' rule left out when the cells were summed (docs/decisions/177): the sketches and counts per day and hour hold the others. */
  leftOut: number;
  /** Simulated voyages of those counted (not left out). */
  simulated: number;
  minHours: number;
  vessels: VesselSketch;
  hours: HoursSketch;
}

/**
 * Approximate cells of one lane and ship category merged over a span of whole days (their voyages departed in
 * [periodStart, periodStart + periodDays days), docs/decisions/158): the voyages of each day of the span and of
 * each UTC hour of departure, so that counts per day, week or hour need no vessel.
 */
export interface DatedApproximatePart extends ApproximatePart {
  periodStart: number;
  periodDays: number;
  category: string;
  /** Voyages per day of the span (periodDays of them). */
  days: number[];
  /** Voyages per UTC hour of departure (24). */
  departureHours: number[];
}

/** What the store gives of one lane in a window, before the lanes' plausibility rule. */
export interface LaneParts {
  from: number;
  to: number;
  exact: PartVoyage[];
  approximate: ApproximatePart[];
}

/** LaneParts whose every part is dated (docs/decisions/154): read from the cells per ship category. */
export interface DatedLaneParts extends LaneParts {
  exact: DatedPartVoyage[];
  approximate: DatedApproximatePart[];
}

export interface LaneStats {
  from: number;
  to: number;
  voyages: number;
  simulatedVoyages: number;
  vessels: VesselSketch;
  hours: HoursSketch;
}

/**
 * The window's lanes (busiest first, as lanesOf orders them; lanes of equal voyages by their ports only when summed with
 * ties 'ports'), what the plausibility rule left out, and whether any figure is approximate.
 */
export interface SummedLanes {
  lanes: LaneStats[];
  leftOut: LeftOut;
  approximate: boolean;
}

/** The parts of voyages listed one by one (a store without cells, and the cells' own fallback). */
export function lanePartsOfVoyages(voyages: readonly Voyage[]): DatedLaneParts[] {
  const lanes = new Map<string, DatedLaneParts>();
  for (const v of voyages) {
    const key = `${v.from}>${v.to}`;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { from: v.from, to: v.to, exact: [], approximate: [] }));
    lane.exact.push({ vslId: v.vslId, hours: (v.arrival - v.departure) / HOUR, simulated: v.simulated, departure: v.departure, category: categoryOf(v.shipType) });
  }
  return [...lanes.values()];
}

/**
 * How lanes of equal voyages are ordered: by more vessels (lanesOf's order), or by their ports only, for an answer
 * that shows no lane order (counting an approximate lane's vessels decodes its registers; docs/decisions/176).
 */
export type LaneTies = 'vessels' | 'ports';

/**
 * The lanes the views count (the rule of lanes-facts `plausibleVoyages`, per voyage while exact): a lane
 * between terminals of one harbour is no lane; a voyage faster than MAX_VOYAGE_SPEED_KN over the great
 * circle is left out (an approximate part's were left out of its sketches when its cells were summed, and counted:
 * docs/decisions/177).
 */
export function sumLanes(parts: readonly LaneParts[], gcNm: (from: number, to: number) => number | null, ties: LaneTies = 'vessels'): SummedLanes {
  const leftOut: LeftOut = { same_harbour: 0, implausible_speed: 0 };
  const lanes: LaneStats[] = [];
  let approximate = false;
  for (const part of parts) {
    const nm = gcNm(part.from, part.to);
    if (sameHarbour(nm)) {
      leftOut.same_harbour += part.exact.length + part.approximate.reduce((sum, a) => sum + a.voyages, 0);
      continue;
    }
    const lane: LaneStats = { from: part.from, to: part.to, voyages: 0, simulatedVoyages: 0, vessels: new VesselSketch(), hours: new HoursSketch() };
    for (const v of part.exact) {
      if (tooFast(nm, v.hours)) {
        leftOut.implausible_speed++;
        continue;
      }
      lane.voyages++;
      if (v.simulated) lane.simulatedVoyages++;
      lane.vessels.add(v.vslId);
      lane.hours.add(v.hours);
    }
    for (const a of part.approximate) {
      approximate = true;
      leftOut.implausible_speed += a.leftOut;
      lane.voyages += a.voyages - a.leftOut;
      lane.simulatedVoyages += a.simulated;
      // the part is not read again: its registers and hours are decoded only if the lane's vessels or hours are read
      lane.vessels.take(a.vessels);
      lane.hours.take(a.hours);
    }
    if (lane.voyages > 0) lanes.push(lane);
  }
  return { lanes: ranked(lanes, ties), leftOut, approximate };
}

/** Lanes busiest first, then as `ties` says, then by port ids. */
function ranked(lanes: LaneStats[], ties: LaneTies): LaneStats[] {
  if (ties === 'ports') return lanes.sort((a, b) => b.voyages - a.voyages || a.from - b.from || a.to - b.to);
  // a lane's vessels are counted only when its voyages tie with another lane's (a count of registers is not free)
  const vessels = new Map<LaneStats, number>();
  const vesselsOf = (lane: LaneStats) => vessels.get(lane) ?? vessels.set(lane, lane.vessels.count()).get(lane)!;
  return lanes.sort((a, b) => b.voyages - a.voyages || vesselsOf(b) - vesselsOf(a) || a.from - b.from || a.to - b.to);
}

/**
 * The lanes of spans that follow one another, each summed by `sumLanes`, without summing their parts again
 * (docs/decisions/176): per lane the spans' voyages, simulated voyages, vessels and hours added (the speed rule is per
 * voyage or per part, so it is not applied again), what was left out added, approximate if any span is. The lanes,
 * their voyages, simulated voyages, what was left out, vessels and hours are those of `sumLanes` over all of the parts
 * together (an approximate part's sketches hold only the voyages counted, docs/decisions/177).
 */
export function lanesTogether(spans: readonly SummedLanes[], ties: LaneTies = 'vessels'): SummedLanes {
  const lanes = new Map<string, LaneStats>();
  const leftOut: LeftOut = { same_harbour: 0, implausible_speed: 0 };
  for (const span of spans) {
    leftOut.same_harbour += span.leftOut.same_harbour;
    leftOut.implausible_speed += span.leftOut.implausible_speed;
    for (const part of span.lanes) {
      const key = `${part.from}>${part.to}`;
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { from: part.from, to: part.to, voyages: 0, simulatedVoyages: 0, vessels: new VesselSketch(), hours: new HoursSketch() }));
      lane.voyages += part.voyages;
      lane.simulatedVoyages += part.simulatedVoyages;
      lane.vessels.take(part.vessels);
      lane.hours.take(part.hours);
    }
  }
  return { lanes: ranked([...lanes.values()], ties), leftOut, approximate: spans.some((span) => span.approximate) };
}

/**
 * Voyages, distinct vessels, hours and whether any voyage is simulated, over a set of lanes; `vessels` when the
 * caller has them already (the window cells', docs/decisions/163): no lane's registers merged then.
 */
export function totalsOf(lanes: readonly LaneStats[], vessels?: number) {
  const merged = new VesselSketch();
  const hours = new HoursSketch();
  let voyages = 0;
  let simulated = 0;
  for (const lane of lanes) {
    voyages += lane.voyages;
    simulated += lane.simulatedVoyages;
    if (vessels === undefined) merged.merge(lane.vessels);
    hours.merge(lane.hours);
  }
  return { voyages, vessels: vessels ?? merged.count(), medianHours: hours.median(), simulated: simulated > 0 };
}

/** Ports by voyages in and out, then partners (as lanes-facts `hubsOf` over the voyages); their vessels: hubVesselsOf. */
export function hubsOfLanes(lanes: readonly LaneStats[]) {
  const hubs = new Map<number, { out: number; in: number; dest: Set<number>; orig: Set<number> }>();
  const hub = (id: number) => {
    let h = hubs.get(id);
    if (!h) hubs.set(id, (h = { out: 0, in: 0, dest: new Set(), orig: new Set() }));
    return h;
  };
  for (const lane of lanes) {
    const a = hub(lane.from);
    a.out += lane.voyages;
    a.dest.add(lane.to);
    const b = hub(lane.to);
    b.in += lane.voyages;
    b.orig.add(lane.from);
  }
  return [...hubs.entries()]
    .map(([portId, h]) => ({
      portId,
      voyages_out: h.out,
      voyages_in: h.in,
      voyages_total: h.out + h.in,
      out_degree: h.dest.size,
      in_degree: h.orig.size,
      partners: new Set([...h.dest, ...h.orig]).size,
    }))
    .sort((a, b) => b.voyages_total - a.voyages_total || b.partners - a.partners || a.portId - b.portId);
}

/** The distinct vessels of the lanes in or out of each of `portIds` (only those ports' lanes merged: an answer's shown hubs). */
export function hubVesselsOf(lanes: readonly LaneStats[], portIds: Iterable<number>): Map<number, number> {
  const sketches = new Map<number, VesselSketch>([...portIds].map((id) => [id, new VesselSketch()]));
  for (const lane of lanes) {
    sketches.get(lane.from)?.merge(lane.vessels);
    if (lane.to !== lane.from) sketches.get(lane.to)?.merge(lane.vessels);
  }
  return new Map([...sketches].map(([id, s]) => [id, s.count()]));
}
