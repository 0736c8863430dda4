import type { Clock } from '../../clock.js';
import { buildPortAreas, PORT_AREA_PARAMETERS, type PortAreaFacts } from '../../events/port-areas.js';
import type { Stop } from '../../events/port-calls.js';
import type { PortRecord } from '../ports/port-table.js';
import type { PortAreasRepo } from './port-areas-repo.js';

export interface PortAreasRebuild {
  gfwPoints: number;
  stops: number;
  calls: number;
  deleted: number;
  written: { gfw: number; learnt: number };
  ports: number;
}

/** Builds the stored port areas from the port table's GFW points and the stored calls' stops (docs/decisions/116). */
export function createPortAreasService(deps: { repo: PortAreasRepo; ports: () => readonly PortRecord[]; clock: Clock }) {
  return {
    repo: deps.repo,

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
  };
}

export type PortAreasService = ReturnType<typeof createPortAreasService>;
