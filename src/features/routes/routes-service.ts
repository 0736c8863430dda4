import type { Static } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.js';
import { RoutingError, type Route } from '../../routing/engine.js';
import { toGeoJsonGeometry } from '../../routing/geometry.js';
import { passageByName, PASSAGES } from '../../routing/graph.js';
import { shippedSeaNetwork, type LoadedSeaNetwork } from '../../routing/network-file.js';
import { systemClock, type Clock } from '../../platform/clock.js';
import type { PortRecord } from '../ports/port-table.js';
import { OPERATOR_CORRECTED_FLAG } from '../kit/override-fields.js';
import { estimateFuel, FUEL_METHOD, REFERENCE_SHIPS } from './fuel.js';
import { DEFAULT_SPEED_KN, MAX_VIAS, type RouteData, type RouteFeature as RouteFeatureSchema, type ShipType } from './schemas.js';
import { round } from '../../platform/stats.js';
import { passagesClosedBySize, shipDimensions, type ShipClass } from '../../routing/ship-size.js';
import { landIndex } from '../../geo/land.js';
import { CONNECTOR_LAND_TOLERANCE_KM, nearestCoastalPoint, POSITION_INLAND_REFUSED_KM } from '../../routing/connector-land.js';
import { waterwayAt } from '../../routing/waterways.js';
import { LOCODE_ALIAS_RADIUS_KM } from '../ports/port-table.js';

export interface RouteRequest {
  from: string;
  to: string;
  via?: string;
  avoid?: string;
  allow?: string;
  speed_kn?: number;
  ship_type?: ShipType;
  format?: 'json' | 'geojson';
  ship_class?: ShipClass;
  loa_m?: number;
  beam_m?: number;
  draught_m?: number;
}

/** The ship size of a request (decision 084): its dimensions and the passages they close, or null without a size. */
export function shipSizeOf(request: { ship_class?: ShipClass; loa_m?: number; beam_m?: number; draught_m?: number }) {
  const dimensions = shipDimensions(request.ship_class, request);
  if (dimensions === null) return null;
  const check = passagesClosedBySize(dimensions);
  return { mask: check.mask, view: { ship_class: request.ship_class ?? null, ...dimensions, closed_by_size: check.closed } };
}

/** A place of a route request, resolved: a port of the port table or a position. */
export interface Place {
  input: string;
  field: string;
  kind: 'port' | 'position';
  port: { port_id: number; name: string; locode: string | null; country: string | null } | null;
  lat: number;
  lon: number;
  /** The port's record carries operator corrections (name or coordinates, docs/feedback.md). */
  corrected?: boolean;
  /** The UN/LOCODE given is not a port's own: it names a place the port serves (decision 084). */
  alias?: { locode: string; note: string };
}

const POSITION = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
const PORT_ID = /^\d{1,9}$/;
const LOCODE = /^([A-Za-z]{2}) ?([A-Za-z2-9]{3})$/;
const SIZE_RANK: Record<string, number> = { large: 4, medium: 3, small: 2, very_small: 1 };

type RouteView = Static<typeof RouteData>;
type RouteFeature = Static<typeof RouteFeatureSchema>;

/**
 * Route planning over the sea routing engine (src/routing, decision 032). The port table and the
 * network are read on first use.
 */
/** Answers kept per process (decision 037): a route depends only on the network, the resolved places and the options. */
const ANSWER_CACHE_ENTRIES = 2_000;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A place farther than the network's resolution (50 km) from its lane: the answer leans on an unchecked straight connector (decision 066). */
export const LONG_CONNECTOR_NM = 27;
export const LONG_CONNECTOR_FALLBACK = 'long_connector';
/** A place on land (a port position inland): its connector crosses more than 0.5 km of land, named in network.over_land_km (decision 082). */
export const CONNECTOR_OVER_LAND_FLAG = 'connector_over_land';
/** A UN/LOCODE resolved to the port that serves it (decision 084); the endpoint's `alias` says which. */
export const LOCODE_ALIAS_FLAG = 'locode_alias';

/** A position (lat,lon) deeper inland than POSITION_INLAND_REFUSED_KM is refused, naming the nearest coastal point (decision 082). */
function refuseInland(lat: number, lon: number, field: string): void {
  const land = landIndex();
  if (!land.isLand(lon, lat) || waterwayAt(lon, lat) !== null) return;
  const inland = land.coastDistanceKm(lon, lat, 2000);
  if (inland <= POSITION_INLAND_REFUSED_KM) return;
  const coast = nearestCoastalPoint(land, lon, lat);
  const offer = coast === null ? '' : `; the nearest coastal point is ${round(coast.lat, 4)},${round(coast.lon, 4)} (${round(coast.distanceKm, 1)} km away): route from there`;
  throw new AppError('point_on_land', `${field}: ${lat},${lon} lies ${Number.isFinite(inland) ? `${round(inland, 1)} km` : 'far'} inland (Natural Earth 1:10m)${offer}`, { field });
}

export function createRoutesService(deps: { ports: () => readonly PortRecord[]; network?: () => LoadedSeaNetwork; answerCacheEntries?: number; clock?: Clock }) {
  const answerCacheEntries = deps.answerCacheEntries ?? ANSWER_CACHE_ENTRIES;
  const clock = deps.clock ?? systemClock;
  /** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  const answers = new Map<string, { data: RouteView | RouteFeature; dataJson: string; qualityFlags: string[]; fallback: string | null; cachedAt: number }>();
  let byId: Map<number, PortRecord> | null = null;
  let byLocode: Map<string, PortRecord> | null = null;
  let byAlias: Map<string, PortRecord> | null = null;
  let indexedTable: readonly PortRecord[] | null = null;
  const loadNetwork = deps.network ?? shippedSeaNetwork;
  /** The network once a route asked for it (it loads on first use; the status never loads it). */
  let loaded: LoadedSeaNetwork | null = null;
  const network = () => (loaded ??= loadNetwork());
  const cacheCounts = { hits: 0, misses: 0, evictions: 0, clears: 0 };
  /**
   * The answer key of a request as sent (its parameters' text), so a repeated request skips resolving
   * its places and passages; valid while the port table it was resolved against is the current one.
   */
  const answerKeys = new Map<string, string>();

  /** The one place a port reference (port_id or UN/LOCODE) is looked up. */
  const findPort = (ref: { portId: number } | { locode: string }): PortRecord | undefined => {
    const table = deps.ports();
    // rebuilt when the table changes (a port import, a correction applied or reverted); answers built on the old table go
    if (byId === null || byLocode === null || byAlias === null || indexedTable !== table) {
      if (indexedTable !== null && answers.size > 0) {
        answers.clear();
        answerKeys.clear();
        cacheCounts.clears++;
      }
      indexedTable = table;
      byId = new Map();
      byLocode = new Map();
      byAlias = new Map();
      for (const port of table) {
        byId.set(port.port_id, port);
        for (const alias of port.locode_aliases ?? []) byAlias.set(alias, port);
        if (port.locode === null) continue;
        // a LOCODE on two ports designates the larger harbour (then the World Port Index one)
        const held = byLocode.get(port.locode);
        const rank = (p: PortRecord) => (SIZE_RANK[p.harbor_size ?? ''] ?? 0) * 2 + (p.sources.includes('wpi') ? 1 : 0);
        if (held === undefined || rank(port) > rank(held)) byLocode.set(port.locode, port);
      }
    }
    return 'portId' in ref ? byId.get(ref.portId) : byLocode.get(ref.locode);
  };
  /** The port serving a UN/LOCODE that is no port's own (a city listed with its airport, as CNSHA), or undefined. */
  const findAlias = (locode: string): PortRecord | undefined => {
    findPort({ locode });
    return byAlias!.get(locode);
  };

  const resolvePlace = (input: string, field: string): Place => {
    const position = POSITION.exec(input);
    if (position) {
      const lat = Number(position[1]);
      const lon = Number(position[2]);
      if (Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new AppError('invalid_request', `${field}: latitude must be within -90..90 and longitude within -180..180`, { field });
      refuseInland(lat, lon, field);
      return { input, field, kind: 'position', port: null, lat, lon };
    }
    const text = input.trim();
    const locode = LOCODE.exec(text);
    let port: PortRecord | undefined;
    let alias: Place['alias'];
    if (PORT_ID.test(text)) port = findPort({ portId: Number(text) });
    else if (locode) {
      const code = `${locode[1]}${locode[2]}`.toUpperCase();
      port = findPort({ locode: code });
      if (port === undefined) {
        port = findAlias(code);
        if (port !== undefined)
          alias = {
            locode: code,
            note: `${code} is not a port of its own in UN/LOCODE; it resolves to the port that serves it, ${port.locode ?? port.port_id} ${port.name} (the largest port of the country within ${LOCODE_ALIAS_RADIUS_KM} km)`,
          };
      }
    } else throw new AppError('invalid_request', `${field} must be a port_id, a UN/LOCODE (e.g. NLRTM) or lat,lon`, { field });
    if (port === undefined) throw new AppError('port_not_found', `${field}: no port ${text} in the port table (find one with /v1/ports/search)`, { field });
    return {
      input,
      field,
      kind: 'port',
      port: { port_id: port.port_id, name: port.name, locode: port.locode, country: port.country },
      lat: port.lat,
      lon: port.lon,
      ...(port.corrections?.length ? { corrected: true } : {}),
      ...(alias ? { alias } : {}),
    };
  };

  const names = (text: string | undefined) =>
    (text ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');

  const plan = (request: RouteRequest, viaTexts: string[]) => {
    if (viaTexts.length > MAX_VIAS) throw new AppError('too_many_vias', `at most ${MAX_VIAS} vias (got ${viaTexts.length})`, { field: 'query.via' });
    const sent = [
      request.from,
      ...viaTexts,
      request.to,
      request.avoid,
      request.allow,
      request.ship_type,
      request.speed_kn,
      request.format ?? 'json',
      request.ship_class,
      request.loa_m,
      request.beam_m,
      request.draught_m,
    ].join('\u0000');
    if (indexedTable !== null && deps.ports() === indexedTable) {
      const known = answerKeys.get(sent);
      const cached = known === undefined ? undefined : answers.get(known);
      if (cached) {
        cacheCounts.hits++;
        answers.delete(known!);
        answers.set(known!, cached);
        return { key: known!, cached, view: null, places: [] as Place[] };
      }
    }
    const places = [resolvePlace(request.from, 'query.from'), ...viaTexts.map((v, i) => resolvePlace(v, `query.via[${i}]`)), resolvePlace(request.to, 'query.to')];
    for (let i = 1; i < places.length; i++) {
      const a = places[i - 1]!;
      const b = places[i]!;
      if ((a.port !== null && a.port.port_id === b.port?.port_id) || (a.lat === b.lat && a.lon === b.lon)) {
        throw new AppError('same_origin_destination', `${a.field} and ${b.field} are the same place (${b.input}): there is no route to plan`, { field: b.field });
      }
    }
    const avoid = names(request.avoid);
    const allow = names(request.allow);
    for (const [field, list] of [
      ['query.avoid', avoid],
      ['query.allow', allow],
    ] as const) {
      const unknown = list.find((name) => passageByName(name) === undefined);
      if (unknown !== undefined) throw new AppError('unknown_passage', `${field}: unknown passage "${unknown}"; known: ${PASSAGES.map((p) => p.id).join(', ')}`, { field });
    }
    const { engine, resolutionKm, attribution } = network();
    const size = shipSizeOf(request);
    const mask = engine.passageMask(avoid, allow) | (size?.mask ?? 0);
    const key = JSON.stringify([
      places.map((p) => [p.input, p.lat, p.lon, p.port?.port_id ?? null]),
      mask,
      request.ship_type ?? null,
      request.speed_kn ?? null,
      request.format ?? 'json',
      size?.view ?? null,
    ]);
    if (answerKeys.size >= answerCacheEntries) answerKeys.delete(answerKeys.keys().next().value!);
    answerKeys.set(sent, key);
    const cached = answers.get(key);
    if (cached) {
      cacheCounts.hits++;
      answers.delete(key);
      answers.set(key, cached);
      return { key, cached, view: null, places };
    }
    let route: Route;
    try {
      route = engine.route(places, { excludedMask: mask });
    } catch (error) {
      if (!(error instanceof RoutingError)) throw error;
      const place = error.pointIndex === undefined ? undefined : places[error.pointIndex];
      const bySize =
        error.code === 'route_unreachable' && size !== null && size.view.closed_by_size.length > 0 ? ` (closed by the ship size: ${size.view.closed_by_size.map((c) => c.passage).join(', ')})` : '';
      throw new AppError(error.code, `${place ? `${place.field}: ` : ''}${error.message}${bySize}`, place ? { field: place.field } : {});
    }
    const shipType: ShipType = request.ship_type ?? 'other';
    const speed = request.speed_kn ?? DEFAULT_SPEED_KN[shipType];
    const endpoint = (place: Place, snapIndex: number) => {
      const leg = route.legs[Math.min(snapIndex, route.legs.length - 1)]!;
      const snap = snapIndex < route.legs.length ? leg.from : leg.to;
      return {
        input: place.input,
        kind: place.kind,
        port: place.port,
        lat: place.lat,
        lon: place.lon,
        network: { lat: round(snap.snappedLat, 5), lon: round(snap.snappedLon, 5), connector_nm: round(snap.connectorNm, 1), over_land_km: round(snap.overLandKm ?? 0, 1) },
        ...(place.alias ? { alias: place.alias } : {}),
      };
    };
    const view: RouteView = {
      from: endpoint(places[0]!, 0),
      to: endpoint(places[places.length - 1]!, places.length - 1),
      via: places.slice(1, -1).map((p, i) => endpoint(p, i + 1)),
      distance_nm: round(route.distanceNm, 1),
      connector_nm: round(route.connectorNm, 1),
      speed_kn: speed,
      speed_source: request.speed_kn === undefined ? 'ship_type_default' : 'speed_kn',
      ship_type: shipType,
      duration_hours: round(route.distanceNm / speed, 1),
      duration_days: round(route.distanceNm / speed / 24, 2),
      passages: route.passages.map((p) => ({ ...p, lat: round(p.lat, 4), lon: round(p.lon, 4) })),
      avoided: engine.maskNames(mask),
      ship_size: size?.view ?? null,
      legs: route.legs.map((leg, i) => ({
        from: places[i]!.input,
        to: places[i + 1]!.input,
        distance_nm: round(leg.distanceNm, 1),
        duration_hours: round(leg.distanceNm / speed, 1),
        passages: leg.passages.map((p) => p.id),
      })),
      estimates: routeEstimates(shipType, speed, route.distanceNm / speed),
      network: { name: 'Eurostat marnet', resolution_km: resolutionKm },
      attribution,
      geometry: toGeoJsonGeometry(route.coordinates.map(([lon, lat]) => [round(lon, 5), round(lat, 5)])),
    };
    return { key, cached: null, view, places };
  };

  const routeEstimates = (shipType: ShipType, speedKn: number, hours: number) => {
    const { label, main_engine_kw, design_speed_kn, sfoc_g_per_kwh } = REFERENCE_SHIPS[shipType];
    return { ...estimateFuel(shipType, speedKn, hours), reference_ship: { label, main_engine_kw, design_speed_kn, sfoc_g_per_kwh }, method: FUEL_METHOD };
  };

  const shape = (view: RouteView, format: RouteRequest['format']): RouteView | RouteFeature => {
    if (format !== 'geojson') return view;
    const { geometry, ...properties } = view;
    return { type: 'Feature' as const, geometry, properties };
  };

  /** The answer, from the cache or computed, serialised once and kept frozen (callers read it, never change it). */
  const answer = (planned: ReturnType<typeof plan>, format: RouteRequest['format']) => {
    let entry = planned.cached;
    let cache: 'hit' | 'miss' | 'miss_evict' = 'hit';
    if (!entry) {
      const view = planned.view!;
      const data = deepFreeze(shape(view, format));
      // a place at a corrected port: the answer stands on the operator's value (docs/feedback.md)
      const qualityFlags = planned.places.some((p) => p.corrected) ? [OPERATOR_CORRECTED_FLAG] : [];
      const ends = [view.from, view.to, ...view.via];
      if (ends.some((p) => p.network.over_land_km > CONNECTOR_LAND_TOLERANCE_KM)) qualityFlags.push(CONNECTOR_OVER_LAND_FLAG);
      if (ends.some((p) => p.alias !== undefined)) qualityFlags.push(LOCODE_ALIAS_FLAG);
      const connectors = ends.map((p) => p.network.connector_nm);
      const fallback = Math.max(...connectors) > LONG_CONNECTOR_NM ? LONG_CONNECTOR_FALLBACK : null;
      entry = { data, dataJson: JSON.stringify(data), qualityFlags, fallback, cachedAt: clock.now() };
      cacheCounts.misses++;
      cache = 'miss';
      answers.set(planned.key, entry);
      if (answers.size > answerCacheEntries) {
        answers.delete(answers.keys().next().value!);
        cacheCounts.evictions++;
        cache = 'miss_evict';
      }
    }
    const served = { cache, cacheAgeSeconds: cache === 'hit' ? Math.max(0, Math.round((clock.now() - entry.cachedAt) / 1000)) : 0, ...(entry.fallback ? { fallback: entry.fallback } : {}) };
    return { data: entry.data, dataJson: entry.dataJson, freshnessSeconds: 0, qualityFlags: [...entry.qualityFlags], served };
  };

  return {
    /** The engine (once loaded) and the answer cache of this process, for the operator. */
    status() {
      return {
        engine: loaded ? { loaded: true as const, resolutionKm: loaded.resolutionKm, loadMs: loaded.loadMs, bytes: loaded.bytes, attribution: loaded.attribution } : { loaded: false as const },
        answerCache: { entries: answers.size, capacity: answerCacheEntries, ...cacheCounts },
      };
    },
    /** When each answer now in the cache was computed (ms), least recently used first. */
    cachedAt(): number[] {
      return [...answers.values()].map((e) => e.cachedAt);
    },
    resolvePlace,
    direct(request: RouteRequest) {
      return answer(plan(request, []), request.format);
    },
    withVia(request: RouteRequest & { via: string }) {
      const vias = request.via
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (vias.length === 0) throw new AppError('invalid_request', 'via must list at least one place (separated by ;)', { field: 'query.via' });
      return answer(plan(request, vias), request.format);
    },
  };
}

export type RoutesService = ReturnType<typeof createRoutesService>;
