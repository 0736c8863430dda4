import { DAY, HOUR, type Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { areaGeometry, buildPortAreas, PORT_AREA_PARAMETERS, type PortAreaFacts } from '../../events/port-areas.js';
import type { Stop } from '../../events/port-calls.js';
import type { PortRecord } from '../ports/port-table.js';
import type { PortAreasRepo } from './port-areas-repo.js';

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

/** Builds the stored port areas from the port table's GFW points and the stored calls' stops (docs/decisions/116). */
export function createPortAreasService(deps: {
  repo: PortAreasRepo;
  ports: () => readonly PortRecord[];
  portById: (portId: number) => PortRecord | undefined;
  clock: Clock;
  leases: RebuildLease;
  owner: string;
}) {
  const service = {
    repo: deps.repo,

    /** A port's stored areas as a GeoJSON FeatureCollection (docs/decisions/116). */
    async geojson(portId: number) {
      const port = deps.portById(portId);
      if (!port) throw new AppError('port_not_found', `no port with port_id ${portId} in the port table (find one with /v1/ports/search)`, { field: 'params.port_id' });
      const rows = await deps.repo.ofPort(portId);
      return {
        data: {
          type: 'FeatureCollection' as const,
          port: { port_id: port.port_id, name: port.name, locode: port.locode },
          features: rows.map((r) => ({
            type: 'Feature' as const,
            id: Number(r.area_id),
            geometry: areaGeometry(JSON.parse(r.cells) as Array<[number, number]>),
            properties: {
              area_id: Number(r.area_id),
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
      const areas = buildPortAreas({ gfwPoints, stops }, PORT_AREA_PARAMETERS);
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
        })),
      );
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
