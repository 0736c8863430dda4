import type { Caller } from '../../access/principals.js';
import { iso, SECOND, type Clock } from '../../platform/clock.js';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import { shipCategory } from '../../fleet/ship-types.js';
import type { CongestionService } from '../congestion/congestion-service.js';
import type { PortsService } from '../ports/ports-service.js';
import type { StsService } from '../sts/sts-service.js';
import { DELAY_SECONDS, type VesselAccess } from '../vessels/entitlements.js';
import type { VesselsService } from '../vessels/vessels-service.js';
import { buildBasemap } from './basemap.js';
import { PORT_TABLE_ATTRIBUTION } from '../ports/port-table-file.js';
import { round } from '../../platform/stats.js';

/** Who looks at the map: anyone (the anonymous preview: delayed positions) or the signed-in operator (live). */
export type MapViewer = 'anonymous' | 'operator';

/** How long a built layer is reused (clock time): the page polls every MAP_POLL_SECONDS. */
export const MAP_LAYER_TTL_MS = 10 * SECOND;
export const MAP_POLL_SECONDS = 15;
/** Ports ranked by calls in the last week whose congestion is drawn. */
export const CONGESTION_PORTS = 25;
/** STS encounters drawn (newest first, last 7 days up to the viewer's horizon). */
export const STS_LIMIT = 200;

const ACCESS: Record<MapViewer, VesselAccess> = { anonymous: { live: false, trial: null }, operator: { live: true } };
const CALLER: Record<MapViewer, Caller> = { anonymous: { kind: 'anonymous' }, operator: { kind: 'operator', operator: { tokenPrefix: 'console' } } };

interface Feature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: Record<string, string | number | boolean | null>;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
  /** Foreign members (RFC 7946 §6.1): what the collection is and how fresh. */
  [member: string]: unknown;
}

/** Attribution of the map's layers (docs/decisions/091): positions and events are Bosun's own, places come from the port table. */
export const MAP_ATTRIBUTION = {
  vessels: ['Vessel positions: Bosun, from the AIS radio messages it receives (simulated vessels marked simulated; not for navigation).'],
  events: ['Encounters and congestion: Bosun, detected from the AIS positions it receives.'],
  places: ['Chokepoint gates: Bosun.', ...PORT_TABLE_ATTRIBUTION],
} as const;

const point = (lon: number, lat: number, properties: Feature['properties']): Feature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [round(lon, 5), round(lat, 5)] }, properties });
/** Properties without their null values (fewer bytes for large static layers). */
const compact = (properties: Feature['properties']) => Object.fromEntries(Object.entries(properties).filter(([, v]) => v !== null && v !== undefined)) as Feature['properties'];

export interface MapServiceDeps {
  clock: Clock;
  fleet: Pick<FleetService, 'vessels'>;
  vessels: Pick<VesselsService, 'visible'>;
  ports: Pick<PortsService, 'table'>;
  sts: Pick<StsService, 'list'>;
  congestion: Pick<CongestionService, 'visitRank' | 'congestion'>;
}

/**
 * The layers of the live map (docs/decisions/060), built from the same services as the API: vessel
 * positions through the vessels service's visibility rule (delayed for anyone but the operator),
 * STS encounters and congestion through their services with the viewer as caller.
 */
export function createMapService(deps: MapServiceDeps) {
  const { clock } = deps;
  const cache = new Map<string, { at: number; value: Promise<FeatureCollection> }>();

  /** One build per key and TTL; concurrent requests share it; a failed build is not kept. */
  function cached(key: string, build: () => Promise<FeatureCollection>): Promise<FeatureCollection> {
    const now = clock.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < MAP_LAYER_TTL_MS && now >= hit.at) return hit.value;
    const value = build();
    cache.set(key, { at: now, value });
    value.catch(() => cache.delete(key));
    return value;
  }

  async function vessels(viewer: MapViewer): Promise<FeatureCollection> {
    const now = clock.now();
    const access = ACCESS[viewer];
    const features: Feature[] = [];
    const all = [...deps.fleet.vessels()];
    const CONCURRENT = 16;
    for (let i = 0; i < all.length; i += CONCURRENT) {
      const seen = await Promise.all(all.slice(i, i + CONCURRENT).map((v) => deps.vessels.visible({ kind: 'vsl_id', vslId: v.vslId }, access)));
      for (const { vessel: v, fix, delayed } of seen) {
        if (!fix) continue;
        features.push(
          point(fix.lon, fix.lat, {
            vsl_id: v.vslId,
            name: v.name,
            mmsi: v.mmsi,
            imo: v.imo,
            category: shipCategory(v.shipType) ?? 'unknown',
            sog: fix.sog,
            cog: fix.cog,
            heading: fix.heading,
            // the symbol points along the heading, else the course; without either it is drawn as a dot
            bearing: fix.heading ?? fix.cog ?? -1,
            observed_at: iso(fix.observedAt),
            age_seconds: Math.max(0, Math.round((now - fix.observedAt) / 1000)),
            delayed,
            simulated: v.simulated || fix.simulated,
          }),
        );
      }
    }
    return {
      type: 'FeatureCollection',
      features,
      viewer,
      generated_at: iso(now),
      // the newest observation time this viewer may see: an answer ?since= this lists what changed after it
      horizon: iso(viewer === 'operator' ? now : now - DELAY_SECONDS * SECOND),
      delay_seconds: viewer === 'operator' ? 0 : DELAY_SECONDS,
      simulated: features.some((f) => f.properties.simulated === true),
      attribution: [...MAP_ATTRIBUTION.vessels],
    };
  }

  async function events(viewer: MapViewer): Promise<FeatureCollection> {
    const caller = CALLER[viewer];
    const features: Feature[] = [];
    const sts = await deps.sts.list(caller, { range: '7D', limit: STS_LIMIT });
    for (const e of sts.data.items) {
      features.push(
        point(e.position.lon, e.position.lat, {
          layer: 'sts',
          id: e.id,
          start: e.start,
          end: e.end,
          duration_minutes: e.duration_minutes,
          vessels: e.vessels.map((v) => v.name ?? v.mmsi ?? v.vsl_id).join(' and '),
          simulated: e.simulated,
        }),
      );
    }
    const ranked = await deps.congestion.visitRank({ by: 'port', range: '7D', limit: CONGESTION_PORTS }, caller);
    const ports = new Map(deps.ports.table().map((p) => [p.port_id, p]));
    for (const item of ranked.data.items as Array<{ port: { port_id: number } }>) {
      const port = ports.get(item.port.port_id);
      if (!port) continue;
      const c = await deps.congestion.congestion(port.port_id, { range: '24H' }, caller);
      features.push(
        point(port.lon, port.lat, {
          layer: 'congestion',
          port_id: port.port_id,
          name: port.name,
          waiting: c.data.now.waiting_at_anchor,
          at_berth: c.data.now.at_berth,
          arrivals_24h: (c.data.window as { arrivals?: number }).arrivals ?? null,
          at: c.data.at,
          simulated: c.qualityFlags.includes('simulated_source'),
        }),
      );
    }
    return { type: 'FeatureCollection', features, viewer, generated_at: iso(clock.now()), analysed_up_to: sts.data.analysed_up_to, attribution: [...MAP_ATTRIBUTION.events] };
  }

  const portFeature = (p: ReturnType<PortsService['table']>[number]) =>
    point(p.lon, p.lat, compact({ layer: 'port', port_id: p.port_id, name: p.name, locode: p.locode, country: p.country, size: p.harbor_size }));
  let placesOf: { table: readonly unknown[]; main: FeatureCollection; more: FeatureCollection } | null = null;
  /**
   * Ports and the twelve chokepoint gates, rebuilt only when the port table is refreshed: `main` holds
   * the chokepoints and the World Port Index ports (loaded with the page), `more` the UN/LOCODE-only
   * ports (loaded when the map is zoomed in).
   */
  function places() {
    const table = deps.ports.table();
    if (placesOf?.table === table) return placesOf;
    const wpi = table.filter((p) => p.sources.includes('wpi'));
    const rest = table.filter((p) => !p.sources.includes('wpi'));
    const main: FeatureCollection = {
      type: 'FeatureCollection',
      features: [...CHOKEPOINTS.map((c) => point(c.lon, c.lat, { layer: 'chokepoint', key: c.key, name: c.name, radius_km: c.radiusKm })), ...wpi.map(portFeature)],
      chokepoints: CHOKEPOINTS.length,
      ports: wpi.length,
      attribution: [...MAP_ATTRIBUTION.places],
    };
    const more: FeatureCollection = { type: 'FeatureCollection', features: rest.map(portFeature), ports: rest.length, attribution: [...PORT_TABLE_ATTRIBUTION] };
    placesOf = { table, main, more };
    return placesOf;
  }

  /**
   * Only the vessels whose visible position changed after `since` (the horizon of an earlier answer),
   * with `total` so that a client merging them can tell when its set has drifted (a vessel gone) and
   * ask again without `since`.
   */
  async function vesselsSince(viewer: MapViewer, since: number): Promise<FeatureCollection> {
    const full = await cached(`vessels:${viewer}`, () => vessels(viewer));
    const changed = full.features.filter((f) => Date.parse(String(f.properties.observed_at)) > since);
    return { ...full, features: changed, changes_since: iso(since), total: full.features.length };
  }

  return {
    vessels: (viewer: MapViewer) => cached(`vessels:${viewer}`, () => vessels(viewer)),
    vesselsSince,
    events: (viewer: MapViewer) => cached(`events:${viewer}`, () => events(viewer)),
    places: () => places().main,
    morePorts: () => places().more,
    basemap: buildBasemap,
  };
}

export type MapService = ReturnType<typeof createMapService>;
