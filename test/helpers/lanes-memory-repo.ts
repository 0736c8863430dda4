// The lanes' store reads computed in memory from a list of port calls, for the property test of issue 31
// (docs/decisions/123): the voyages paired from the calls by the one pairing rule (src/events/voyages.ts)
// and the window's filters and counts written again here, independently of the SQL and of the voyages table.
import { voyagePairs, type VoyageCall } from '../../src/events/voyages.js';
import type { LanesFilter, LanesRepo, WindowSpan } from '../../src/features/routes/lanes/lanes-repo.js';
import type { Voyage } from '../../src/features/routes/lanes/lanes-math.js';
import { lanePartsOfVoyages } from '../../src/features/routes/lanes/lane-stats.js';
import { VesselSketch } from '../../src/platform/sketches.js';
import type { VoyageCounts } from '../../src/events/lane-rule.js';
import { voyageOrder } from '../../src/features/routes/lanes/lanes-facts.js';

/** A ship type passes when no filter is asked for, or when it is one of the codes (an unknown type never does). */
const typeMatches = (shipType: number | null, codes: readonly number[] | null) => codes === null || (shipType !== null && codes.includes(shipType));

export function createMemoryLanesRepo(calls: readonly VoyageCall[]): LanesRepo {
  const sorted = [...calls].sort((a, b) => (a.vsl_id < b.vsl_id ? -1 : a.vsl_id > b.vsl_id ? 1 : a.arrival - b.arrival));
  const voyages = voyagePairs(sorted);
  const inWindow = (c: VoyageCall, w: WindowSpan) =>
    c.arrival >= w.since - w.lookbackMs && c.arrival < w.until && (c.arrival >= w.since || (c.departure !== null && c.departure >= w.since && c.departure < w.until));
  const departedIn = (c: VoyageCall, w: WindowSpan) => c.departure !== null && c.departure >= w.since && c.departure < w.until;
  const repo: LanesRepo = {
    /** The window's voyages grouped per lane, one by one (no cells). */
    async laneParts(w: WindowSpan, f: LanesFilter) {
      return lanePartsOfVoyages(await repo.voyagesForWindow(w, f));
    },
    async datedLaneParts(w: WindowSpan, f: LanesFilter) {
      return lanePartsOfVoyages(await repo.voyagesForWindow(w, f));
    },
    async lanePartsPerSpan(w: WindowSpan, f: Omit<LanesFilter, 'shipTypes'>, spans: ReadonlyArray<{ since: number; until: number }>) {
      const all = await repo.voyagesForWindow(w, { ...f, shipTypes: null });
      return spans.map((s) => lanePartsOfVoyages(all.filter((v) => v.departure >= s.since && v.departure < s.until)));
    },
    async voyagesForWindow(w: WindowSpan, f: LanesFilter): Promise<Voyage[]> {
      return voyages
        .filter((v) => v.departure >= w.since && v.departure < w.until && v.arrival < w.until && v.arrival >= v.departure && v.from_arrival >= w.since - w.lookbackMs)
        .filter((v) => typeMatches(v.ship_type, f.shipTypes))
        .filter((v) => (f.from === undefined || v.from_port === f.from) && (f.to === undefined || v.to_port === f.to))
        .filter((v) => f.touching === undefined || v.from_port === f.touching || v.to_port === f.touching)
        .map((v) => ({ vslId: v.vsl_id, from: v.from_port, to: v.to_port, departure: v.departure, arrival: v.arrival, shipType: v.ship_type, simulated: v.simulated === 1 }));
    },
    async laneVoyagesPage(w: WindowSpan, f: LanesFilter & { from: number; to: number }, fromMs: number, offset: number, limit: number) {
      const lane = (await repo.voyagesForWindow(w, f)).filter((v) => v.arrival - v.departure >= fromMs).sort(voyageOrder);
      return { voyages: lane.slice(offset, offset + limit), more: offset + limit < lane.length };
    },
    /** The window's distinct vessels, exact (a set of the ids of every voyage the lanes' rule counts). */
    async windowVessels(w: WindowSpan, counts: VoyageCounts) {
      const vessels = new VesselSketch();
      for (const v of await repo.voyagesForWindow(w, { shipTypes: null })) if (counts(v.from, v.to, v.arrival - v.departure)) vessels.add(v.vslId);
      return vessels;
    },
    async callsInWindow(w: WindowSpan): Promise<number> {
      return calls.filter((c) => inWindow(c, w)).length;
    },
    async departuresPerBucket(w: WindowSpan, bucketMs: number, f: { shipTypes: readonly number[] | null; port?: number }) {
      const buckets = new Map<number, { bucket: number; n: number; simulated: boolean }>();
      for (const c of calls) {
        if (!departedIn(c, w) || c.arrival < w.since - w.lookbackMs || c.arrival >= w.until) continue;
        if (!typeMatches(c.ship_type, f.shipTypes) || (f.port !== undefined && c.port_id !== f.port)) continue;
        const bucket = Math.floor((c.departure! - w.since) / bucketMs);
        const held = buckets.get(bucket) ?? { bucket, n: 0, simulated: false };
        buckets.set(bucket, { bucket, n: held.n + 1, simulated: held.simulated || c.simulated === 1 });
      }
      return [...buckets.values()];
    },
    async portActivity(w: WindowSpan, f: { shipTypes: readonly number[] | null; port?: number }) {
      const ports = new Map<number, { port_id: number; arrivals: number; departures: number; simulated: boolean }>();
      for (const c of calls) {
        if (!inWindow(c, w) || !typeMatches(c.ship_type, f.shipTypes) || (f.port !== undefined && c.port_id !== f.port)) continue;
        const held = ports.get(c.port_id) ?? { port_id: c.port_id, arrivals: 0, departures: 0, simulated: false };
        ports.set(c.port_id, {
          port_id: c.port_id,
          arrivals: held.arrivals + (c.arrival >= w.since ? 1 : 0),
          departures: held.departures + (departedIn(c, w) ? 1 : 0),
          simulated: held.simulated || c.simulated === 1,
        });
      }
      return [...ports.values()];
    },
    async firstArrival(): Promise<number | null> {
      return calls.length === 0 ? null : Math.min(...calls.map((c) => c.arrival));
    },
  };
  return repo;
}
