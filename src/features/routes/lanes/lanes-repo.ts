import { sql } from 'kysely';
import { BLOCK, blockStartOf, categoryOf, hoursOfCell, voyagesOfCell, voyagesOfLaneCell, WEEK, weekStartOf } from '../../../events/voyage-cells.js';
import { DAY, HOUR } from '../../../platform/clock.js';
import { HoursSketch, VesselSketch } from '../../../platform/sketches.js';
import type { Db } from '../../../store/db.js';
import type { VoyageCounts } from '../../../events/lane-rule.js';
import type { DatedApproximatePart, DatedLaneParts, LaneParts } from './lane-stats.js';
import type { Voyage } from './lanes-math.js';
import { voyageOrder } from './lanes-facts.js';

/** Which voyages or calls one answer reads: ship-type codes (null: all), and an origin, destination or port touched. */
export interface LanesFilter {
  shipTypes: readonly number[] | null;
  from?: number;
  to?: number;
  touching?: number;
}

/** A window [since, until) and how long before since an origin call may have begun (docs/lanes.md). */
export interface WindowSpan {
  since: number;
  until: number;
  lookbackMs: number;
}

/** The codes a filter matches; an empty list matches no code (not even the cells' UNKNOWN_SHIP_TYPE). */
const codes = (list: readonly number[]) => (list.length > 0 ? [...list] : [NO_SHIP_TYPE]);
const NO_SHIP_TYPE = -1000;
/** The ship categories of a filter's codes (an empty list: a category no cell has). */
const categoriesOf = (list: readonly number[]) => (list.length > 0 ? [...new Set(list.map(categoryOf))] : ['none']);

/** The category of approximate parts merged over every ship category (an answer that does not split by category). */
export const ANY_CATEGORY = 'any';
/**
 * The lane cells a window reads (docs/decisions/157), as [period days, from, to) of their starts: per lane at
 * most a run of days ending its first ISO week, a run of weeks ending its first 28-day block, its whole
 * blocks, a run of weeks beginning its last block and a run of days beginning its last week. A run that
 * neither begins nor ends its week or block (a window inside one) is read as its days or weeks.
 */
function laneCellPeriodsOf(w: WindowSpan): Array<[number, number, number]> {
  const periods: Array<[number, number, number]> = [];
  const push = (periodDays: number, from: number, to: number) => {
    const last = periods[periods.length - 1];
    if (last && last[0] === periodDays && last[2] === from) last[2] = to;
    else periods.push([periodDays, from, to]);
  };
  const runOrEach = (from: number, to: number, unit: number, whole: number, startOf: (t: number) => number) => {
    const n = (to - from) / unit;
    if (n === 1 || n === whole / unit || from === startOf(from) || to === startOf(from) + whole) push((n * unit) / DAY, from, from + unit);
    else push(unit / DAY, from, to);
  };
  const days = (from: number, to: number) => {
    const boundary = weekStartOf(to - 1);
    if (from < boundary) runOrEach(from, boundary, DAY, WEEK, weekStartOf);
    if (Math.max(from, boundary) < to) runOrEach(Math.max(from, boundary), to, DAY, WEEK, weekStartOf);
  };
  const firstWeek = weekStartOf(w.since) === w.since ? w.since : weekStartOf(w.since) + WEEK;
  const weeksEnd = weekStartOf(w.until);
  if (firstWeek >= weeksEnd) {
    if (w.since < w.until) days(w.since, w.until);
    return periods;
  }
  if (w.since < firstWeek) days(w.since, firstWeek);
  for (let at = firstWeek; at < weeksEnd;) {
    const end = Math.min(blockStartOf(at) + BLOCK, weeksEnd);
    runOrEach(at, end, WEEK, BLOCK, blockStartOf);
    at = end;
  }
  if (weeksEnd < w.until) days(weeksEnd, w.until);
  return periods;
}

const VOYAGE_COLUMNS = ['vsl_id', 'from_port', 'to_port', 'departure', 'arrival', 'ship_type', 'simulated'] as const;
function voyageOfRow(r: { vsl_id: string; from_port: number; to_port: number; departure: number; arrival: number; ship_type: number | null; simulated: number }): Voyage {
  return {
    vslId: r.vsl_id,
    from: Number(r.from_port),
    to: Number(r.to_port),
    departure: Number(r.departure),
    arrival: Number(r.arrival),
    shipType: r.ship_type === null ? null : Number(r.ship_type),
    simulated: Number(r.simulated) === 1,
  };
}

/**
 * Voyages that departed in [w.since, departedBefore) and arrived by w.until (not before they departed), from an origin
 * call that began at most w.lookbackMs before w.since, in no particular order: the window's (`voyagesForWindow`,
 * departedBefore w.until), or those of one cut day (docs/decisions/176: that day of the departure index, not every
 * day from it to w.until).
 */
async function selectVoyages(db: Db, w: WindowSpan, f: LanesFilter, departedBefore: number): Promise<Voyage[]> {
  let q = db
    .selectFrom('voyages')
    .select(VOYAGE_COLUMNS)
    .where('departure', '>=', w.since)
    .where('departure', '<', departedBefore)
    .where('arrival', '<', w.until)
    .whereRef('arrival', '>=', 'departure')
    .where('from_arrival', '>=', w.since - w.lookbackMs);
  if (f.shipTypes !== null) q = q.where('ship_type', 'in', codes(f.shipTypes));
  if (f.from !== undefined) q = q.where('from_port', '=', f.from);
  if (f.to !== undefined) q = q.where('to_port', '=', f.to);
  if (f.touching !== undefined) {
    const p = f.touching;
    q = q.where((eb) => eb.or([eb('from_port', '=', p), eb('to_port', '=', p)]));
  }
  // no order: every view groups, counts or sorts what it shows (the property test compares with the per-request computation)
  return (await q.execute()).map(voyageOfRow);
}

/** The voyages of window w that departed on the UTC day beginning at `day` (a cut day read as its voyages). */
const voyagesDepartedOn = (db: Db, w: WindowSpan, day: number, f: LanesFilter) => selectVoyages(db, { since: day, until: w.until, lookbackMs: w.lookbackMs + (day - w.since) }, f, day + DAY);

/** The call counts are kept per UTC day (port_call_days): a window read from them has whole-day bounds. */
function wholeDays(w: WindowSpan): void {
  if (w.since % DAY !== 0 || w.until % DAY !== 0 || w.lookbackMs % DAY !== 0) throw new Error('lanes: a window of the call counts must have whole-day bounds');
}

/** Lanes keyed by origin, then destination (no key text built per cell read). */
function laneMap<P extends LaneParts>(create: (from: number, to: number) => P) {
  const lanes = new Map<number, Map<number, P>>();
  return {
    laneOf(from: number, to: number): P {
      let byTo = lanes.get(from);
      if (!byTo) lanes.set(from, (byTo = new Map()));
      let lane = byTo.get(to);
      if (!lane) byTo.set(to, (lane = create(from, to)));
      return lane;
    },
    all: (): P[] => [...lanes.values()].flatMap((byTo) => [...byTo.values()]),
  };
}

/**
 * The cells per ship category (docs/decisions/149 and 158), every part dated. The window is cut at `boundaries`
 * (whole days inside it) into spans, each read as the lane cells are (docs/decisions/157 and 164: per lane and
 * category at most a run of days, a run of weeks, whole blocks, a run of weeks and a run of days). Exact cells give
 * their voyages; the approximate cells of one lane, ship category and span are merged into one part as they are
 * read (registers and hours merged encoded, voyages added per day and per hour of departure), so an approximate
 * cell costs a fixed amount whatever it holds and the parts are at most lanes × categories × spans.
 */
async function categoryCellParts(db: Db, w: WindowSpan, f: LanesFilter, boundaries: readonly number[], byCategory: boolean, registersFrom = -Infinity): Promise<DatedLaneParts[]> {
  const earliestOrigin = w.since - w.lookbackMs;
  const spanStarts = [w.since, ...boundaries.filter((b) => b > w.since && b < w.until)].sort((a, b) => a - b);
  const spanOf = (t: number) => {
    let i = spanStarts.length - 1;
    while (i > 0 && spanStarts[i]! > t) i--;
    return i;
  };
  const acrossBoundary = (start: number, days: number) => spanStarts.some((b) => b > start && b < start + days * DAY);
  const lanes = laneMap((from, to): DatedLaneParts => ({ from, to, exact: [], approximate: [] }));
  const merged = new Map<DatedLaneParts, Map<string, Array<DatedApproximatePart | undefined>>>();
  const approximatePartOf = (lane: DatedLaneParts, category: string, span: number): DatedApproximatePart => {
    let byCategory = merged.get(lane);
    if (!byCategory) merged.set(lane, (byCategory = new Map()));
    let spans = byCategory.get(category);
    if (!spans) byCategory.set(category, (spans = []));
    let part = spans[span];
    if (!part) {
      const periodStart = spanStarts[span]!;
      const periodDays = ((spanStarts[span + 1] ?? w.until) - periodStart) / DAY;
      part = {
        voyages: 0,
        leftOut: 0,
        simulated: 0,
        minHours: Infinity,
        vessels: VesselSketch.approximate(),
        hours: HoursSketch.ofBuckets([]),
        periodStart,
        periodDays,
        category,
        days: new Array<number>(periodDays).fill(0),
        departureHours: new Array<number>(24).fill(0),
      };
      spans[span] = part;
      lane.approximate.push(part);
    }
    return part;
  };
  const cellsIn = (periodDays: number, from: number, to: number) => {
    let q = db
      .selectFrom('voyage_cells')
      .select(['period_start', 'period_days', 'from_port', 'to_port', 'category', 'voyages', 'left_out', 'simulated', 'max_arrival', 'min_from_arrival', 'min_duration_ms', 'exact', 'facts'])
      // registers only where the answer counts vessels (docs/decisions/164 and 168: most of a large cell's text); a
      // read never spans registersFrom, a boundary of the spans
      .$if(from >= registersFrom, (qb) => qb.select('vessel_registers'))
      .where('period_start', '>=', from)
      .where('period_start', '<', to)
      .where('period_days', '=', periodDays);
    if (f.shipTypes !== null) q = q.where('category', 'in', categoriesOf(f.shipTypes));
    if (f.from !== undefined) q = q.where('from_port', '=', f.from);
    if (f.to !== undefined) q = q.where('to_port', '=', f.to);
    if (f.touching !== undefined) {
      const p = f.touching;
      q = q.where((eb) => eb.or([eb('from_port', '=', p), eb('to_port', '=', p)]));
    }
    return q.execute();
  };
  type CellRow = Awaited<ReturnType<typeof cellsIn>>[number];
  const addApproximate = (lane: DatedLaneParts, cell: CellRow, start: number) => {
    const part = approximatePartOf(lane, byCategory ? cell.category : ANY_CATEGORY, spanOf(start));
    part.hours.mergeEncoded(hoursOfCell(cell.facts, part.days, (start - part.periodStart) / DAY, part.departureHours));
    part.voyages += Number(cell.voyages);
    part.leftOut += Number(cell.left_out);
    part.simulated += Number(cell.simulated);
    part.minHours = Math.min(part.minHours, Number(cell.min_duration_ms) / HOUR);
    if (cell.vessel_registers) part.vessels.mergeEncoded(cell.vessel_registers);
  };
  // cells read after the others (docs/decisions/164): a block or run of weeks cut by the window (or across a
  // boundary) as its week cells, a week or run of days as its day cells (one read per period for all of its lanes
  // and categories), a day as its voyages
  const finer = new Map<string, { periodDays: 1 | 7; from: number; to: number; keys: Set<string> }>();
  const daysAsVoyages: Array<{ lane: DatedLaneParts; category: string; start: number }> = [];
  const add = (cell: CellRow): void => {
    const lane = lanes.laneOf(Number(cell.from_port), Number(cell.to_port));
    const start = Number(cell.period_start);
    const periodDays = Number(cell.period_days);
    if (Number(cell.exact) === 1) {
      for (const v of voyagesOfCell(cell.facts))
        if (v.arrival < w.until && v.fromArrival >= earliestOrigin)
          lane.exact.push({ vslId: v.vslId, hours: (v.arrival - v.departure) / HOUR, simulated: v.simulated, departure: v.departure, category: cell.category });
    } else if (!acrossBoundary(start, periodDays) && Number(cell.max_arrival) < w.until && Number(cell.min_from_arrival) >= earliestOrigin) {
      addApproximate(lane, cell, start);
    } else if (periodDays > 1) {
      // some of its voyages do not count in this window (or the answer splits it): its weeks, or its days
      const read = periodDays > 7 ? 7 : 1;
      const key = `${read}|${start}|${start + periodDays * DAY}`;
      const group = finer.get(key) ?? finer.set(key, { periodDays: read, from: start, to: start + periodDays * DAY, keys: new Set() }).get(key)!;
      group.keys.add(`${lane.from}>${lane.to}>${cell.category}`);
    } else {
      // some of the day's voyages are still at sea at until, or left a call begun before the look-back: its voyages
      daysAsVoyages.push({ lane, category: cell.category, start });
    }
  };
  // each span between boundaries as decision 157 reads the lane cells: runs of days and weeks and whole blocks
  for (let i = 0; i < spanStarts.length; i++)
    for (const [periodDays, from, to] of laneCellPeriodsOf({ since: spanStarts[i]!, until: spanStarts[i + 1] ?? w.until, lookbackMs: w.lookbackMs }))
      for (const cell of await cellsIn(periodDays, from, to)) add(cell);
  while (finer.size > 0) {
    const groups = [...finer.values()];
    finer.clear();
    for (const { periodDays, from, to, keys } of groups) for (const cell of await cellsIn(periodDays, from, to)) if (keys.has(`${cell.from_port}>${cell.to_port}>${cell.category}`)) add(cell);
  }
  // one read per cut day for all of its lanes and categories (docs/decisions/169: not one per lane and category)
  const cutPerDay = new Map<number, Map<string, DatedLaneParts>>();
  for (const { lane, category, start } of daysAsVoyages) {
    const keys = cutPerDay.get(start) ?? cutPerDay.set(start, new Map()).get(start)!;
    keys.set(`${lane.from}>${lane.to}>${category}`, lane);
  }
  for (const [start, keys] of cutPerDay)
    for (const v of await voyagesDepartedOn(db, w, start, f)) {
      const category = categoryOf(v.shipType);
      const lane = keys.get(`${v.from}>${v.to}>${category}`);
      if (lane) lane.exact.push({ vslId: v.vslId, hours: (v.arrival - v.departure) / HOUR, simulated: v.simulated, departure: v.departure, category });
    }
  return lanes.all();
}

/**
 * What the lanes analytics read (docs/lanes.md, docs/decisions/123): the voyages the event store keeps
 * (table voyages), and the port calls counted per day as the event store keeps them (table port_call_days,
 * decision 138), never the window's calls themselves.
 */
export function createLanesRepo(db: Db) {
  /**
   * The lane cells (all ship categories; docs/decisions/153): approximate cells merged per lane as they are read.
   * `departed` (whole days within w, w by default): only the voyages that departed in it, counted as w counts them
   * (arrived by w.until, from an origin call at most w.lookbackMs before w.since; docs/decisions/162); `withVessels`
   * false: the approximate cells' registers left unread (docs/decisions/168).
   */
  async function laneCellParts(w: WindowSpan, f: LanesFilter, departed: { since: number; until: number } = w, withVessels = true): Promise<LaneParts[]> {
    const earliestOrigin = w.since - w.lookbackMs;
    const lanes = laneMap((from, to): LaneParts => ({ from, to, exact: [], approximate: [] }));
    const wholeInWindow = (cell: { max_arrival: number; min_from_arrival: number }) => Number(cell.max_arrival) < w.until && Number(cell.min_from_arrival) >= earliestOrigin;
    const laneCellsIn = (periodDays: number, from: number, to: number) => {
      let q = db
        .selectFrom('voyage_lane_cells')
        .select(['period_start', 'period_days', 'from_port', 'to_port', 'voyages', 'left_out', 'simulated', 'max_arrival', 'min_from_arrival', 'min_duration_ms', 'voyage_list', 'hours_buckets'])
        .$if(withVessels, (qb) => qb.select('vessel_registers'))
        .where('period_start', '>=', from)
        .where('period_start', '<', to)
        .where('period_days', '=', periodDays);
      if (f.from !== undefined) q = q.where('from_port', '=', f.from);
      if (f.to !== undefined) q = q.where('to_port', '=', f.to);
      if (f.touching !== undefined) {
        const p = f.touching;
        q = q.where((eb) => eb.or([eb('from_port', '=', p), eb('to_port', '=', p)]));
      }
      return q.execute();
    };
    type LaneCellRow = Awaited<ReturnType<typeof laneCellsIn>>[number];
    // cells not whole in the window: read after the others (their days, or their voyages)
    const cut: LaneCellRow[] = [];
    const add = (cell: LaneCellRow): void => {
      if (!wholeInWindow(cell)) {
        cut.push(cell);
        return;
      }
      const lane = lanes.laneOf(Number(cell.from_port), Number(cell.to_port));
      if (cell.voyage_list !== null) {
        const [vessels, durations, simulated] = voyagesOfLaneCell(cell.voyage_list);
        for (let i = 0; i < vessels.length; i++) lane.exact.push({ vslId: vessels[i]!, hours: durations[i]! / HOUR, simulated: simulated[i] === 1 });
        return;
      }
      let part = lane.approximate[0];
      if (!part) lane.approximate.push((part = { voyages: 0, leftOut: 0, simulated: 0, minHours: Infinity, vessels: VesselSketch.approximate(), hours: HoursSketch.ofBuckets([]) }));
      part.voyages += Number(cell.voyages);
      part.leftOut += Number(cell.left_out);
      part.simulated += Number(cell.simulated);
      part.minHours = Math.min(part.minHours, Number(cell.min_duration_ms) / HOUR);
      if (cell.vessel_registers) part.vessels.mergeEncoded(cell.vessel_registers);
      part.hours.mergeEncoded(cell.hours_buckets!);
    };
    for (const [periodDays, from, to] of laneCellPeriodsOf({ ...w, since: departed.since, until: departed.until })) for (const cell of await laneCellsIn(periodDays, from, to)) add(cell);
    // a block or run of weeks cut by the window: its week cells; a week or run of days: its day cells (one read per
    // period for all of its cut lanes, docs/decisions/176: not one per lane); a day: its voyages, one read per day for all of its lanes
    const cutLanesPerDay = new Map<number, Set<string>>();
    while (cut.length > 0) {
      const finer = new Map<string, { periodDays: number; from: number; to: number; lanes: Set<string> }>();
      for (const cell of cut.splice(0)) {
        const start = Number(cell.period_start);
        const periodDays = Number(cell.period_days);
        const lane = `${cell.from_port}>${cell.to_port}`;
        if (periodDays === 1) {
          cutLanesPerDay.set(start, (cutLanesPerDay.get(start) ?? new Set()).add(lane));
          continue;
        }
        const key = `${start}|${periodDays}`;
        const group = finer.get(key) ?? finer.set(key, { periodDays: periodDays > 7 ? 7 : 1, from: start, to: start + periodDays * DAY, lanes: new Set() }).get(key)!;
        group.lanes.add(lane);
      }
      for (const { periodDays, from, to, lanes: cutLanes } of finer.values())
        for (const part of await laneCellsIn(periodDays, from, to)) if (cutLanes.has(`${part.from_port}>${part.to_port}`)) add(part);
    }
    for (const [dayStart, laneKeys] of cutLanesPerDay) {
      const voyages = await voyagesDepartedOn(db, w, dayStart, f);
      for (const v of voyages) if (laneKeys.has(`${v.from}>${v.to}`)) lanes.laneOf(v.from, v.to).exact.push({ vslId: v.vslId, hours: (v.arrival - v.departure) / HOUR, simulated: v.simulated });
    }
    return lanes.all();
  }

  /**
   * The distinct vessels of the window's voyages of every lane and ship category (as voyagesForWindow selects them,
   * with no filter) from the window cells (docs/decisions/163): the periods laneParts reads, a cell not whole in
   * the window read as its weeks or days, a day as its voyages, of which those the lanes' rule `counts` count (the
   * cells hold those only, docs/decisions/177).
   */
  async function windowVessels(w: WindowSpan, counts: VoyageCounts): Promise<VesselSketch> {
    const earliestOrigin = w.since - w.lookbackMs;
    const vessels = VesselSketch.approximate();
    const periods = laneCellPeriodsOf(w);
    const cutDays: number[] = [];
    while (periods.length > 0) {
      const [periodDays, from, to] = periods.pop()!;
      const cells = await db
        .selectFrom('voyage_window_cells')
        .select(['period_start', 'period_days', 'max_arrival', 'min_from_arrival', 'voyage_list', 'vessel_registers'])
        .where('period_start', '>=', from)
        .where('period_start', '<', to)
        .where('period_days', '=', periodDays)
        .execute();
      for (const cell of cells) {
        const start = Number(cell.period_start);
        const days = Number(cell.period_days);
        if (Number(cell.max_arrival) < w.until && Number(cell.min_from_arrival) >= earliestOrigin) {
          if (cell.voyage_list !== null) for (const id of voyagesOfLaneCell(cell.voyage_list)[0]) vessels.add(id);
          else vessels.mergeEncoded(cell.vessel_registers!);
        } else if (days > 1) periods.push([days > 7 ? 7 : 1, start, start + days * DAY]);
        else cutDays.push(start);
      }
    }
    for (const dayStart of cutDays) for (const v of await voyagesDepartedOn(db, w, dayStart, { shipTypes: null })) if (counts(v.from, v.to, v.arrival - v.departure)) vessels.add(v.vslId);
    return vessels;
  }

  const repo = {
    /**
     * Voyages that departed in [since, until) and arrived by until (not before they departed), from an
     * origin call that began at most lookbackMs before since, in no particular order.
     */
    async voyagesForWindow(w: WindowSpan, f: LanesFilter): Promise<Voyage[]> {
      return selectVoyages(db, w, f, w.until);
    },

    /**
     * One page of a lane's voyages in the window (as voyagesForWindow selects them, none shorter than
     * `fromMs`: the speed rule's bound, lanes-facts `plausibleFromMs`) in lanes-facts `voyageOrder`, and whether
     * more follow (docs/decisions/169): read in departure order by the origin's index, so a page costs its
     * offset and limit, not the window. Voyages that depart at the same instant are ordered by vessel id here (the
     * store's collation is not the views'): the page's first and last departures are read, then all voyages between.
     */
    async laneVoyagesPage(w: WindowSpan, f: LanesFilter & { from: number; to: number }, fromMs: number, offset: number, limit: number): Promise<{ voyages: Voyage[]; more: boolean }> {
      const lane = () => {
        let q = db
          .selectFrom('voyages')
          .where('from_port', '=', f.from)
          .where('to_port', '=', f.to)
          .where('departure', '>=', w.since)
          .where('departure', '<', w.until)
          .where('arrival', '<', w.until)
          .where((eb) => eb(sql<number>`arrival - departure`, '>=', fromMs))
          .where('from_arrival', '>=', w.since - w.lookbackMs);
        if (f.shipTypes !== null) q = q.where('ship_type', 'in', codes(f.shipTypes));
        return q;
      };
      const departures = (
        await lane()
          .select('departure')
          .orderBy('departure')
          .limit(limit + 1)
          .offset(offset)
          .execute()
      ).map((r) => Number(r.departure));
      if (departures.length === 0) return { voyages: [], more: false };
      const first = departures[0]!;
      const last = departures[Math.min(limit, departures.length) - 1]!;
      const before =
        offset === 0
          ? 0
          : Number(
              (
                await lane()
                  .select((eb) => eb.fn.countAll().as('n'))
                  .where('departure', '<', first)
                  .executeTakeFirst()
              )?.n ?? 0,
            );
      const between = (await lane().select(VOYAGE_COLUMNS).where('departure', '>=', first).where('departure', '<=', last).execute()).map(voyageOfRow).sort(voyageOrder);
      return { voyages: between.slice(offset - before, offset - before + limit), more: departures.length > limit };
    },

    /**
     * The window's voyages (as voyagesForWindow selects them) summed per lane from the voyage cells
     * (docs/decisions/149 and 153; the caller brings the window's cells up to date first): the window's whole
     * ISO weeks are read from week cells, its other days from day cells; the lane cells (all ship categories)
     * when no ship type is asked for, the cells per ship category otherwise. An exact cell gives its voyages
     * that count; an approximate one its sketches when all its voyages count (merged per lane as they are
     * read), else its day cells (for a week) or its voyages (for a day) are read instead; `countsOnly`: the
     * approximate parts' vessels left empty (docs/decisions/168).
     */
    async laneParts(w: WindowSpan, f: LanesFilter, read: { countsOnly?: boolean } = {}): Promise<LaneParts[]> {
      wholeDays(w);
      return f.shipTypes === null ? laneCellParts(w, f, w, !read.countsOnly) : categoryCellParts(db, w, f, [], true, read.countsOnly ? Infinity : -Infinity);
    },

    /**
     * laneParts of the window's voyages that departed in each of `spans` (whole days within w), from the lane cells
     * (all ship categories only): a span of 7 days not on ISO weeks reads at most a run of days ending an ISO week
     * and one beginning the next per lane (docs/decisions/157 and 162).
     */
    async lanePartsPerSpan(w: WindowSpan, f: Omit<LanesFilter, 'shipTypes'>, spans: ReadonlyArray<{ since: number; until: number }>): Promise<LaneParts[][]> {
      wholeDays(w);
      if (spans.some((s) => s.since % DAY !== 0 || s.until % DAY !== 0 || s.since < w.since || s.until > w.until)) throw new Error('lanes: a span must be whole days within the window');
      const out: LaneParts[][] = [];
      for (const s of spans) out.push(await laneCellParts(w, { ...f, shipTypes: null }, s));
      return out;
    },

    /**
     * laneParts for answers split by period or ship category (docs/decisions/154 and 158): always the cells per
     * ship category, every exact voyage with its departure and category, the approximate cells merged per lane,
     * span between `boundaries` (whole days) and, when `byCategory`, ship category (else their category reads
     * ANY_CATEGORY), with their voyages per day and hour of departure; `countsOnly`: their approximate parts' vessels
     * left empty (docs/decisions/162: for answers that count voyages per key and take their vessels elsewhere);
     * `vesselsFrom` (w.since or one of the boundaries): only the approximate parts that departed from then on have
     * their vessels (docs/decisions/168: lane-trends shows the vessels of its current weeks only).
     */
    async datedLaneParts(w: WindowSpan, f: LanesFilter, split: { boundaries?: readonly number[]; byCategory?: boolean; countsOnly?: boolean; vesselsFrom?: number } = {}): Promise<DatedLaneParts[]> {
      wholeDays(w);
      const boundaries = split.boundaries ?? [];
      if (boundaries.some((b) => b % DAY !== 0)) throw new Error('lanes: the cells are split at whole days only');
      if (split.vesselsFrom !== undefined && split.vesselsFrom !== w.since && !boundaries.includes(split.vesselsFrom)) throw new Error('lanes: vessels are read from the window start or a boundary');
      return categoryCellParts(db, w, f, boundaries, split.byCategory ?? true, split.countsOnly ? Infinity : (split.vesselsFrom ?? -Infinity));
    },

    /** The distinct vessels of the window's voyages the lanes' rule counts, all lanes and ship types (docs/decisions/163, 177): an estimate, kept per period. */
    async windowVessels(w: WindowSpan, counts: VoyageCounts): Promise<VesselSketch> {
      wholeDays(w);
      return windowVessels(w, counts);
    },

    /** Port calls that began or ended in [since, until) (those that began before since: at most lookbackMs before). */
    async callsInWindow(w: WindowSpan): Promise<number> {
      wholeDays(w);
      const row = await db
        .selectFrom('port_call_days')
        .select((eb) => eb.fn.sum<number>('calls').as('n'))
        .where('arrival_day', '>=', w.since - w.lookbackMs)
        .where('arrival_day', '<', w.until)
        .where((eb) => eb.or([eb('arrival_day', '>=', w.since), eb.and([eb('departure_day', '>=', w.since), eb('departure_day', '<', w.until)])]))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Calls that departed in [since, until), counted per bucket of bucketMs (whole days) from since: [bucket index, calls, any simulated]. */
    async departuresPerBucket(w: WindowSpan, bucketMs: number, f: { shipTypes: readonly number[] | null; port?: number }): Promise<Array<{ bucket: number; n: number; simulated: boolean }>> {
      wholeDays(w);
      if (bucketMs % DAY !== 0) throw new Error(`departuresPerBucket: a bucket of ${bucketMs} ms is not whole days (the cells are days)`);
      let q = db
        .selectFrom('port_call_days')
        .select((eb) => [sql<number>`(departure_day - cast(${w.since} as bigint)) / cast(${bucketMs} as bigint)`.as('bucket'), eb.fn.sum<number>('calls').as('n'), eb.fn.max('simulated').as('sim')])
        .where('departure_day', '>=', w.since)
        .where('departure_day', '<', w.until)
        .where('arrival_day', '>=', w.since - w.lookbackMs)
        .where('arrival_day', '<', w.until);
      if (f.shipTypes !== null) q = q.where('ship_type', 'in', codes(f.shipTypes));
      if (f.port !== undefined) q = q.where('port_id', '=', f.port);
      const rows = await q.groupBy(sql`1`).execute();
      return rows.map((r) => ({ bucket: Number(r.bucket), n: Number(r.n), simulated: Number(r.sim) === 1 }));
    },

    /** Per port, the calls that arrived and those that departed in [since, until), and whether any of them was simulated. */
    async portActivity(w: WindowSpan, f: { shipTypes: readonly number[] | null; port?: number }): Promise<Array<{ port_id: number; arrivals: number; departures: number; simulated: boolean }>> {
      wholeDays(w);
      let q = db
        .selectFrom('port_call_days')
        .select((eb) => [
          'port_id',
          sql<number>`sum(case when arrival_day >= ${w.since} then calls else 0 end)`.as('arrivals'),
          sql<number>`sum(case when departure_day >= ${w.since} and departure_day < ${w.until} then calls else 0 end)`.as('departures'),
          eb.fn.max('simulated').as('sim'),
        ])
        .where('arrival_day', '>=', w.since - w.lookbackMs)
        .where('arrival_day', '<', w.until)
        .where((eb) => eb.or([eb('arrival_day', '>=', w.since), eb.and([eb('departure_day', '>=', w.since), eb('departure_day', '<', w.until)])]));
      if (f.shipTypes !== null) q = q.where('ship_type', 'in', codes(f.shipTypes));
      if (f.port !== undefined) q = q.where('port_id', '=', f.port);
      const rows = await q.groupBy('port_id').execute();
      return rows.map((r) => ({ port_id: Number(r.port_id), arrivals: Number(r.arrivals), departures: Number(r.departures), simulated: Number(r.sim) === 1 }));
    },

    /** The earliest arrival in the store (where the history begins), or null when it holds no call. */
    async firstArrival(): Promise<number | null> {
      const row = await db
        .selectFrom('port_calls')
        .select((eb) => eb.fn.min('arrival').as('first'))
        .executeTakeFirst();
      return row?.first === null || row?.first === undefined ? null : Number(row.first);
    },
  };
  return repo;
}
export type LanesRepo = ReturnType<typeof createLanesRepo>;
