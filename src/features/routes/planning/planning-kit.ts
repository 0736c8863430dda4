import type { Static } from '@sinclair/typebox';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import { AppError } from '../../../platform/errors.js';
import type { Route } from '../../../routing/engine.js';
import { passageByName, PASSAGES } from '../../../routing/graph.js';
import type { SummaryData } from './planning-schemas.js';
import type { Place } from '../routes-service.js';
import { DEFAULT_SPEED_KN, type ShipType } from '../schemas.js';
import { estimateFuel } from '../fuel.js';
import { round } from '../../../platform/stats.js';

/**
 * The route-planning kit (docs/decisions/033-route-planning-operations.md): a passage's distance, time and
 * fuel, the figures of a route, the differences between two, and the parsing of closures and pairs. Pure.
 */

export const passageName = (id: string) => passageByName(id)?.name ?? id;

export interface Speed {
  speed_kn: number;
  speed_source: 'speed_kn' | 'ship_type_default';
  ship_type: ShipType;
}

export interface PairText {
  from: string;
  to: string;
  index: number;
}

export interface SummaryEntry {
  agentId: string;
  computedAt: number;
  item: Static<typeof SummaryData>['summaries'][number];
}

export type PairError = { code: string; message: string; field: string };

export const speedOf = (request: { speed_kn?: number; ship_type?: ShipType }): Speed => {
  const shipType = request.ship_type ?? 'other';
  return { speed_kn: request.speed_kn ?? DEFAULT_SPEED_KN[shipType], speed_source: request.speed_kn === undefined ? 'ship_type_default' : 'speed_kn', ship_type: shipType };
};

/** A passage's distance, time and estimated fuel (src/features/routes/fuel.ts), unrounded for sums. */
export interface Passage {
  distanceNm: number;
  hours: number;
  fuelT: number;
  co2T: number;
}

export const passage = (distanceNm: number, speedKn: number, shipType: ShipType): Passage => {
  const hours = distanceNm / speedKn;
  const fuel = estimateFuel(shipType, speedKn, hours);
  return { distanceNm, hours, fuelT: fuel.fuel_t, co2T: fuel.co2_t };
};

export const figures = (route: Route, speedKn: number, shipType: ShipType) => {
  const p = passage(route.distanceNm, speedKn, shipType);
  return {
    distance_nm: round(route.distanceNm, 1),
    duration_hours: round(p.hours, 1),
    duration_days: round(p.hours / 24, 2),
    fuel_t: p.fuelT,
    co2_t: p.co2T,
    passages: route.passages.map((x) => x.id),
  };
};

export const delta = (base: Passage, other: Passage) => ({
  distance_nm: round(other.distanceNm - base.distanceNm, 1),
  distance_pct: base.distanceNm === 0 ? 0 : round(((other.distanceNm - base.distanceNm) / base.distanceNm) * 100, 1),
  hours: round(other.hours - base.hours, 1),
  days: round((other.hours - base.hours) / 24, 2),
  fuel_t: round(other.fuelT - base.fuelT, 1),
  co2_t: round(other.co2T - base.co2T, 1),
});

export const sumPassages = (items: readonly Passage[]): Passage => ({
  distanceNm: items.reduce((s, x) => s + x.distanceNm, 0),
  hours: items.reduce((s, x) => s + x.hours, 0),
  fuelT: items.reduce((s, x) => s + x.fuelT, 0),
  co2T: items.reduce((s, x) => s + x.co2T, 0),
});

export const portRef = (place: Place) => (place.port === null ? null : { port_id: place.port.port_id, name: place.port.name, locode: place.port.locode });

export const inlineError = (error: unknown): PairError => {
  if (!(error instanceof AppError)) throw error;
  return { code: error.code, message: error.message, field: error.options.field ?? '' };
};

/** Passage names (ids, aliases or event-layer chokepoints) as passage ids, each once; throws unknown_passage. */
export function closedPassages(text: string | undefined, field: string): string[] {
  const ids: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    const mapped = CHOKEPOINT_PASSAGES[name];
    if (mapped === null) throw new AppError('unknown_passage', `${field}: ${name} is a chokepoint of the event layer but not a passage of the sea network; it cannot be closed`, { field });
    const passage = passageByName(mapped ?? name);
    if (passage === undefined) throw new AppError('unknown_passage', `${field}: unknown passage "${raw.trim()}"; known: ${PASSAGES.map((p) => p.id).join(', ')}`, { field });
    if (!ids.includes(passage.id)) ids.push(passage.id);
  }
  return ids;
}

/** `origin:destination` pairs separated by `;`, at most `max`. */
export function splitPairs(text: string, max: number): PairText[] {
  const items = text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw new AppError('invalid_request', 'pairs must list at least one origin:destination pair (separated by ;)', { field: 'query.pairs' });
  if (items.length > max) throw new AppError('too_many_pairs', `at most ${max} pairs (got ${items.length})`, { field: 'query.pairs' });
  return items.map((item, index) => {
    const parts = item.split(':');
    if (parts.length !== 2 || parts[0]!.trim() === '' || parts[1]!.trim() === '') {
      throw new AppError('invalid_request', `pairs[${index}]: "${item}" is not origin:destination (e.g. NLRTM:SGSIN)`, { field: `query.pairs[${index}]` });
    }
    return { from: parts[0]!.trim(), to: parts[1]!.trim(), index };
  });
}
