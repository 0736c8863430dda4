import { DAY, HOUR, type Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { areaCellOf, areaGeometry, areaKey, buildPortAreas, effectiveAreas, PORT_AREA_CELL_DEG, PORT_AREA_PARAMETERS, type PortAreaFacts, type StoredPortArea } from '../../events/port-areas.js';
import type { Trx } from '../../store/transaction.js';
import type { CorrectionChange } from '../kit/override-fields.js';
import type { Stop } from '../../events/port-calls.js';
import type { PortRecord } from '../ports/port-table.js';
import type { PortAreaRow, PortAreasRepo } from './port-areas-repo.js';
import { portPoints } from './event-detection.js';

const GFW_ATTRIBUTION = 'Anchorage points: Global Fishing Watch anchorages_pipeline (Apache-2.0)';

export interface PortAreasRebuild {
  gfwPoints: number;
  stops: number;
  calls: number;
  deleted: number;
  written: { gfw: number; learnt: number };
  ports: number;
}

/** The learnt areas follow the stored calls: rebuilt when the last build is this old. */
export const PORT_AREAS_REBUILD_EVERY_MS = DAY;
/** One process rebuilds at a time; a rebuilder that dies leaves the work to another after this. */
const REBUILD_LEASE = 'port_areas_rebuild';
const REBUILD_LEASE_MS = HOUR;

/** The store lease the daily rebuild is taken under (store/leases.ts). */
export interface RebuildLease {
  claim(name: string, owner: string, now: number, leaseMs: number): Promise<boolean>;
  release(name: string, owner: string, now: number): Promise<void>;
}

type Cells = Array<[number, number]>;

/** A stored row as the detector and the GeoJSON read it. */
export function storedArea(row: PortAreaRow): StoredPortArea & { row: PortAreaRow } {
  return {
    row,
    portId: row.port_id,
    provenance: row.provenance as StoredPortArea['provenance'],
    kind: row.kind as StoredPortArea['kind'],
    cells: JSON.parse(row.cells) as Cells,
    masks: row.masks ? (JSON.parse(row.masks) as Cells) : null,
    stops: row.stops,
    updatedAt: Number(row.updated_at),
  };
}

/** The key `port_id:row:col` of an area: parsed, or null. */
function parseKey(text: string): { portId: number; cell: [number, number] } | null {
  const m = /^(\d{1,9}):(-?\d{1,6}):(-?\d{1,6})$/.exec(text.trim());
  return m ? { portId: Number(m[1]), cell: [Number(m[2]), Number(m[3])] } : null;
}

/** Builds the stored port areas from the port table's GFW points and the stored calls' stops (docs/decisions/116). */
export function createPortAreasService(deps: {
  repo: PortAreasRepo;
  ports: () => readonly PortRecord[];
  portById: (portId: number) => PortRecord | undefined;
  clock: Clock;
  leases: RebuildLease;
  owner: string;
  /** Told when the stored areas change in this process (the event runner reloads them; decision 120). */
  onChanged?: () => void;
}) {
  /** The area (as laid over by corrections) holding a key's anchor cell at the key's port, or null. */
  async function areaAt(key: string, trx?: Trx): Promise<{ area: StoredPortArea & { row: PortAreaRow }; cells: Cells } | null> {
    const parsed = parseKey(key);
    if (!parsed) return null;
    const [row, col] = parsed.cell;
    const areas = effectiveAreas((await deps.repo.ofPort(parsed.portId, trx)).map(storedArea));
    return areas.find((a) => a.cells.some(([r, c]) => r === row && c === col)) ?? null;
  }

  const service = {
    repo: deps.repo,

    /** The stored areas for the port-call detector (decision 120). */
    async load(): Promise<StoredPortArea[]> {
      return (await deps.repo.all()).map(storedArea);
    },

    version: () => deps.repo.version(),

    /**
     * The stable key of the area a feedback ticket names (decision 121): its `area_key`
     * (`port_id:row:col`, in the GeoJSON's properties) or its current `area_id`; the key's cell must lie
     * in a current area of that port.
     */
    async resolveKey(ref: string): Promise<string> {
      const text = ref.trim();
      let key: string | null = null;
      if (/^\d{1,12}$/.test(text)) {
        const row = (await deps.repo.all()).find((r) => Number(r.area_id) === Number(text));
        if (row) key = row.area_key ?? areaKey(row.port_id, (JSON.parse(row.cells) as Cells)[0] ?? [0, 0]);
      } else if (parseKey(text)) key = text;
      const found = key ? await areaAt(key) : null;
      if (!key || !found) {
        throw new AppError('invalid_request', `no port area ${text}: name an area by its area_key (port_id:row:col) or area_id from GET /v1/ports/{port_id}/areas`, { field: 'body.subject.id' });
      }
      return key;
    },

    /**
     * Applies an area correction in the caller's transaction (decision 121): an `operator` row copying the
     * area as it stands, with the changes (kind; lat/lon move it, its cells shifted with its centre;
     * removed = 1 leaves it no cells), masking the cells it had. Rebuilds leave operator rows alone.
     */
    async applyCorrection(ticketId: string, key: string, changes: readonly CorrectionChange[], now: number, trx: Trx): Promise<void> {
      const found = await areaAt(key, trx);
      if (!found) throw new AppError('feedback_state_invalid', `port area ${key} is no longer stored (rebuilt away); reject the ticket or ask for a new one`);
      const { area, cells } = found;
      const value = (field: string) => changes.find((c) => c.field === field)?.value;
      const d = PORT_AREA_CELL_DEG;
      const [lat, lon] = [Number(value('lat') ?? area.row.lat), Number(value('lon') ?? area.row.lon)];
      const [dRow, dCol] = [Math.round((lat - area.row.lat) / d), Math.round((lon - area.row.lon) / d)];
      const moved: Cells = value('removed') === 1 ? [] : cells.map(([r, c]) => [r + dRow, c + dCol]);
      const anchor = moved[0] ? areaCellOf(lat, lon) : parseKey(key)!.cell;
      await deps.repo.insertOperator(
        {
          port_id: area.portId,
          provenance: 'operator',
          kind: (value('kind') as string | undefined) ?? area.kind,
          cells: JSON.stringify(moved),
          lat: Math.round(lat * 1e5) / 1e5,
          lon: Math.round(lon * 1e5) / 1e5,
          confidence: 1,
          vessels: area.row.vessels,
          stops: area.row.stops,
          anchor_stops: area.row.anchor_stops,
          gfw_points: area.row.gfw_points,
          updated_at: now,
          area_key: moved.some(([r, c]) => r === anchor[0] && c === anchor[1]) ? areaKey(area.portId, anchor) : key,
          masks: JSON.stringify([...cells, ...(area.masks ?? [])]),
          ticket_id: ticketId,
        },
        trx,
      );
    },

    /** Removes the operator rows of a reverted ticket (the built areas are unmasked). */
    revertCorrection: (ticketId: string, trx: Trx) => deps.repo.deleteByTicket(ticketId, trx),

    /** The stored areas changed (a correction committed): the detector reloads them. */
    changed(): void {
      deps.onChanged?.();
    },

    /** A port's stored areas as a GeoJSON FeatureCollection (docs/decisions/116). */
    async geojson(portId: number) {
      const port = deps.portById(portId);
      if (!port) throw new AppError('port_not_found', `no port with port_id ${portId} in the port table (find one with /v1/ports/search)`, { field: 'params.port_id' });
      // as corrected: masked cells left out, removed areas omitted (decision 121)
      const rows = effectiveAreas((await deps.repo.ofPort(portId)).map(storedArea))
        .map(({ area, cells }) => ({ ...area.row, cells }))
        .sort((a, b) => Number(a.area_id) - Number(b.area_id));
      return {
        data: {
          type: 'FeatureCollection' as const,
          port: { port_id: port.port_id, name: port.name, locode: port.locode },
          features: rows.map((r) => ({
            type: 'Feature' as const,
            id: Number(r.area_id),
            geometry: areaGeometry(r.cells),
            properties: {
              area_id: Number(r.area_id),
              area_key: r.area_key,
              kind: r.kind as 'berth' | 'anchorage',
              provenance: r.provenance as 'gfw' | 'learnt' | 'operator',
              confidence: r.confidence,
              centre: { lat: r.lat, lon: r.lon },
              vessels: r.vessels,
              stops: r.stops,
              anchor_stops: r.anchor_stops,
              gfw_points: r.gfw_points,
              updated_at: new Date(Number(r.updated_at)).toISOString(),
            },
          })),
          attribution: [GFW_ATTRIBUTION],
        },
      };
    },

    /** Rebuilds the gfw and learnt areas; operator areas stay as they are. */
    async rebuild(): Promise<PortAreasRebuild> {
      const gfwPoints = deps.ports().flatMap((p) => p.anchorages.map(([lat, lon]) => ({ portId: p.port_id, lat, lon })));
      const stops: Array<PortAreaFacts['stops'][number]> = [];
      let calls = 0;
      for await (const page of deps.repo.callStops()) {
        calls += page.length;
        for (const call of page) {
          for (const s of JSON.parse(call.stops) as Stop[]) stops.push({ portId: call.port_id, vslId: call.vsl_id, lat: s.lat, lon: s.lon, kind: s.kind });
        }
      }
      const areas = buildPortAreas({ gfwPoints, stops, portPoints: portPoints(deps.ports()) }, PORT_AREA_PARAMETERS);
      const now = deps.clock.now();
      const { deleted } = await deps.repo.replace(
        ['gfw', 'learnt'],
        areas.map((a) => ({
          port_id: a.portId,
          provenance: a.provenance,
          kind: a.kind,
          cells: JSON.stringify(a.cells),
          lat: a.lat,
          lon: a.lon,
          confidence: a.confidence,
          vessels: a.vessels,
          stops: a.stops,
          anchor_stops: a.anchorStops,
          gfw_points: a.gfwPoints,
          updated_at: now,
          area_key: a.key,
        })),
      );
      deps.onChanged?.();
      return {
        gfwPoints: gfwPoints.length,
        stops: stops.length,
        calls,
        deleted,
        written: { gfw: areas.filter((a) => a.provenance === 'gfw').length, learnt: areas.filter((a) => a.provenance === 'learnt').length },
        ports: new Set(areas.map((a) => a.portId)).size,
      };
    },

    /**
     * The scheduled rebuild (every process runs the job): nothing while the last build is younger than a
     * day or another process holds the rebuild lease; otherwise this process rebuilds under the lease.
     */
    async rebuildIfDue(): Promise<PortAreasRebuild | null> {
      const now = deps.clock.now();
      const last = await deps.repo.lastBuiltAt();
      if (last !== null && now - last < PORT_AREAS_REBUILD_EVERY_MS) return null;
      if (!(await deps.leases.claim(REBUILD_LEASE, deps.owner, now, REBUILD_LEASE_MS))) return null;
      try {
        return await service.rebuild();
      } finally {
        await deps.leases.release(REBUILD_LEASE, deps.owner, deps.clock.now());
      }
    },
  };
  return service;
}

export type PortAreasService = ReturnType<typeof createPortAreasService>;
