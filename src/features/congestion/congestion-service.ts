import type { Caller } from '../../access/principals.js';
import type { Clock } from '../../platform/clock.js';
import { DAY, HOUR, iso, isoOrNull } from '../../platform/clock.js';
import { congestion, type CallsSummary } from '../../events/congestion.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import { shipCategory, type ShipCategory } from '../../fleet/ship-types.js';
import { AppError } from '../../platform/errors.js';
import { portCallFromRow } from '../events/event-rows.js';
import type { EventsService } from '../events/events-service.js';
import { parseRange, parseTime, resolveWindow } from '../kit/time-window.js';
import type { PortRecord } from '../ports/port-table.js';
import { portRollUp } from '../ports/port-rollup.js';
import { correctedPortFlags, type PortsService } from '../ports/ports-service.js';
import { flagsFor } from '../vessels/vessel-views.js';
import { correctedVessel, type Corrections } from '../kit/override-fields.js';
import { wholeDaysOf, type CallWindow, type VisitRankRepo } from './visit-rank-repo.js';
import { PortVisits } from '../../events/visit-cells.js';
import { APPROXIMATE_FLAG } from '../routes/lanes/lanes-kit.js';

/** Longest congestion and visit-rank window (the trend also reads the window before it). */
export const MAX_RANGE_MS = 30 * DAY;
/** An open call whose last fix is older than this at the moment analysed is not counted as in port now. */
export const SILENT_AFTER_MS = 6 * HOUR;
const DEFAULT_CONGESTION_RANGE = '24H';
const DEFAULT_VISIT_RANK_RANGE_MS = 7 * DAY;

export const CONGESTION_METHOD =
  'Port calls detected from AIS positions (GFW parameters: within 3 km of a port or anchorage point, stopped below 0.2 kn). Now: open calls at `at` by the stop under way (anchorage: waiting; berth; none: moving), calls silent over 6 h left out. Window: arrivals and departures in (at - range, at]; waits and berth times of the calls that ended in it, median and p90 by nearest rank; trend against the window before.';
export const METHOD_REFERENCE = 'docs/events.md#get-v1portsport_idcongestion';

type PortView = { port_id: number; name: string | null; locode: string | null; country: string | null };

const portView = (p: PortRecord): PortView => ({ port_id: p.port_id, name: p.name, locode: p.locode, country: p.country });

/** The AIS ship type codes (1-99) of a category, for the store's ship_type filter. */
const codesOf = (category: ShipCategory) => Array.from({ length: 99 }, (_, i) => i + 1).filter((code) => shipCategory(code) === category);

const windowView = (summary: CallsSummary, from: number, to: number) => ({ from: iso(from), to: iso(to), ...summary });

/** Port congestion and visit rank, from the event store (docs/decisions/022, 024, 030). */
export function createCongestionService(deps: {
  events: EventsService;
  fleet: FleetService;
  repo: VisitRankRepo;
  clock: Clock;
  ports: Pick<PortsService, 'byId' | 'table'>;
  /** Operator corrections of a vessel's identity (docs/feedback.md): ranked vessels are shown corrected. */
  corrections?: (vslId: string) => Corrections | undefined;
}) {
  const { events } = deps;
  const portById = (portId: number) => deps.ports.byId(portId);
  /** A call's port, also when a table update has since removed it (then only its id is known). */
  const portRef = (portId: number): PortView => {
    const port = portById(portId);
    return port ? portView(port) : { port_id: portId, name: null, locode: null, country: null };
  };

  function requirePort(portId: number): PortRecord {
    const port = portById(portId);
    if (!port) throw new AppError('port_not_found', `no port with port_id ${portId} in the port table (find one with /v1/ports/search)`, { field: 'params.port_id' });
    return port;
  }

  let rollUp: { table: readonly PortRecord[]; root: Map<number, number> } | null = null;
  /** Entry → the port it rolls up to, for the current table (decision 079). */
  const rootOf = (portId: number) => {
    const table = deps.ports.table();
    if (rollUp?.table !== table) rollUp = { table, root: portRollUp(table) };
    return rollUp.root.get(portId) ?? portId;
  };

  /** A visit-rank row of a port: its calls, vessels and the median dwell of its calls that ended in the window. */
  const rankedPort = (portId: number, p: PortVisits, index: number) => ({
    rank: index + 1,
    port: portRef(portId),
    calls: p.calls,
    distinct_vessels: p.vessels.count(),
    median_dwell_hours: p.medianDwellHours(),
  });

  /** Ports by calls, then distinct vessels, then id. */
  const topOf = <T extends { portId: number; visits: PortVisits }>(ports: T[], limit: number): T[] =>
    ports
      .map((p) => ({ p, vessels: p.visits.vessels.count() }))
      .sort((a, b) => b.p.visits.calls - a.p.visits.calls || b.vessels - a.vessels || a.p.portId - b.p.portId)
      .slice(0, limit)
      .map(({ p }) => p);

  /** Ports with their entries rolled up: calls summed, vessels counted once per port. */
  function rolledUpPorts(ports: Map<number, PortVisits>, limit: number) {
    const groups = new Map<number, { portId: number; visits: PortVisits; members: Map<number, number> }>();
    for (const [portId, visits] of ports) {
      const root = rootOf(portId);
      let g = groups.get(root);
      if (!g) groups.set(root, (g = { portId: root, visits: new PortVisits(), members: new Map() }));
      g.visits.merge(visits);
      g.members.set(portId, visits.calls);
    }
    return topOf([...groups.values()], limit).map((p, i) => ({
      ...rankedPort(p.portId, p.visits, i),
      includes: [...p.members]
        .filter(([id]) => id !== p.portId)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([id, calls]) => ({ port: portRef(id), calls })),
    }));
  }

  /** Calls count in the window they began in; a dwell only if the call had ended by the window's end (a later departure is not known there, decision 029). */
  function rankedPorts(ports: Map<number, PortVisits>, limit: number) {
    return topOf(
      [...ports].map(([portId, visits]) => ({ portId, visits })),
      limit,
    ).map((p, i) => ({ ...rankedPort(p.portId, p.visits, i), includes: [] }));
  }

  async function rankedVessels(w: CallWindow, limit: number, windowCalls: number) {
    return (await deps.repo.topVessels(w, limit, windowCalls)).map((v, i) => {
      const state = correctedVessel(deps.fleet, v.vslId, deps.corrections);
      const vessel = { vsl_id: v.vslId, name: state?.name ?? null, imo: state?.imo ?? null, mmsi: state?.mmsi ?? null, ship_category: shipCategory(state?.shipType ?? v.shipType) };
      return { rank: i + 1, vessel, calls: v.calls, distinct_ports: v.ports };
    });
  }

  /** Visit rank by port from the visit cells (decision 161). */
  async function byPort(w: CallWindow, terminals: boolean, limit: number) {
    const ports = await deps.repo.portVisits(w);
    const visits = [...ports.values()];
    return {
      items: terminals ? rankedPorts(ports, limit) : rolledUpPorts(ports, limit),
      totalCalls: visits.reduce((sum, p) => sum + p.calls, 0),
      simulated: visits.some((p) => p.simulated > 0),
      // distinct vessels and median dwells of a window holding a sketched cell are estimates (decision 161)
      approximate: visits.some((p) => !p.exact),
    };
  }

  /** Visit rank by vessel from the vessels' kept bounds (decision 165; at one port, decision 175); the window's calls counted from the visit cells. */
  async function byVessel(w: CallWindow, limit: number) {
    const counts = await deps.repo.callCounts(w);
    await events.visitBoundsUpToDate(w.to);
    return { items: await rankedVessels(w, limit, counts.calls), totalCalls: counts.calls, simulated: counts.simulated > 0, approximate: false };
  }

  return {
    async congestion(portId: number, query: { range?: string; vessel_type?: ShipCategory; at?: string }, caller: Caller) {
      const port = requirePort(portId);
      const rangeText = query.range ?? DEFAULT_CONGESTION_RANGE;
      const rangeMs = parseRange(rangeText, 'range', MAX_RANGE_MS);
      const horizon = events.horizon(caller);
      const requested = query.at !== undefined ? parseTime(query.at, 'at') : horizon;
      const at = Math.min(requested, horizon);

      const rows = await events.reads.callsAtPort(portId, at - 2 * rangeMs, at, query.vessel_type ? codesOf(query.vessel_type) : null);
      // a call that ended after `at` is open at `at`: its departure (> at) keeps it out of the windows' completed calls
      const calls = rows.map(portCallFromRow);
      const silent = new Set(rows.filter((r) => r.departure === null && r.last_fix_at < at - SILENT_AFTER_MS));
      const result = congestion(calls, { at, rangeMs });
      // silent vessels still count in the windows (they arrived), not in the "now" figures
      const heard = silent.size === 0 ? result : congestion(rows.filter((r) => !silent.has(r)).map(portCallFromRow), { at, rangeMs });

      const analysed = await events.analysedUpTo();
      const used = rows.filter((r) => r.arrival <= at);
      const confidence = used.length === 0 ? null : Math.round((used.reduce((sum, r) => sum + r.confidence, 0) / used.length) * 100) / 100;
      return {
        data: {
          port: portView(port),
          at: iso(at),
          at_clamped: requested > horizon,
          range: rangeText.toUpperCase(),
          vessel_type: query.vessel_type ?? null,
          now: { waiting_at_anchor: heard.waiting_now, at_berth: heard.at_berth_now, moving_in_port: heard.in_port_moving_now, silent_not_counted: silent.size },
          window: windowView(result.window, at - rangeMs, at),
          previous_window: windowView(result.previous_window, at - 2 * rangeMs, at - rangeMs),
          trend: result.trend,
          analysed_up_to: isoOrNull(analysed),
          data_age_seconds: analysed === null ? null : Math.max(0, Math.round((at - analysed) / 1000)),
          calls_analysed: used.length,
          method: { summary: CONGESTION_METHOD, reference: METHOD_REFERENCE },
        },
        // the age of the newest observation the answer stands on
        freshnessSeconds: analysed === null ? 0 : (deps.clock.now() - Math.min(at, analysed)) / 1000,
        confidence,
        // the port as served: an operator correction of its name or position is flagged (docs/feedback.md)
        qualityFlags: [...flagsFor(used.some((r) => r.simulated === 1)), ...correctedPortFlags([port])],
      };
    },

    async visitRank(query: { by?: 'port' | 'vessel'; range?: string; from?: string; to?: string; port_id?: number; terminals?: boolean; limit: number }, caller: Caller) {
      const by = query.by ?? 'port';
      if (query.terminals !== undefined && by !== 'port')
        throw new AppError('invalid_request', 'terminals applies to by=port (it ranks every port-table entry on its own)', { field: 'query.terminals' });
      if (query.port_id !== undefined && by === 'port') throw new AppError('invalid_request', 'port_id ranks the vessels calling at one port: use it with by=vessel', { field: 'query.port_id' });
      const port = query.port_id !== undefined ? requirePort(query.port_id) : null;
      const { from, to } = resolveWindow(query, { horizon: events.horizon(caller), defaultRangeMs: DEFAULT_VISIT_RANK_RANGE_MS, maxRangeMs: MAX_RANGE_MS });
      const w = { from, to, portId: port?.port_id ?? null };
      const { firstDay, endDay } = wholeDaysOf(w);
      if (firstDay < endDay) await events.visitCellsUpToDate({ from: firstDay, to: endDay });
      const { items, totalCalls, simulated, approximate } = by === 'port' ? await byPort(w, query.terminals === true, query.limit) : await byVessel(w, query.limit);
      const analysed = await events.analysedUpTo();
      return {
        data: { by, from: iso(from), to: iso(to), port: port ? portView(port) : null, items, total_calls: totalCalls, analysed_up_to: isoOrNull(analysed) },
        freshnessSeconds: analysed === null ? 0 : (deps.clock.now() - Math.min(to, analysed)) / 1000,
        qualityFlags: [
          ...flagsFor(simulated),
          ...(approximate ? [APPROXIMATE_FLAG] : []),
          ...correctedPortFlags([port, ...(by === 'port' ? (items as Array<{ port: PortView }>).map((i) => portById(i.port.port_id)) : [])]),
        ],
      };
    },
  };
}
export type CongestionService = ReturnType<typeof createCongestionService>;
