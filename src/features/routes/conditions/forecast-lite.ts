import { HOUR } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { round } from '../../../platform/stats.js';
import type { PortsService } from '../../ports/ports-service.js';
import { DELAY_SECONDS } from '../../vessels/entitlements.js';
import { DEFAULT_SPEED_KN, type ShipType } from '../schemas.js';

/** The parts of forecast-lite (a vessel's ETA) that need no store: the destination's port, the speed, the confidence. */

/** Positions up to this long before the vessel's position give its recent speed. */
export const RECENT_SPEED_WINDOW_MS = 6 * HOUR;
/** A position at least this fast counts as moving (for the recent speed). */
export const MOVING_KN = 1;
/** Fewer moving positions than this: the recent speed is not used. */
export const MIN_SPEED_SAMPLES = 3;
/** A vessel this close to its destination port has arrived: nothing left to route. */
export const AT_DESTINATION_KM = 3;

/** The routing ship type of an AIS ship type code (AIS does not tell container from bulk: cargo is general_cargo). */
export function routingShipType(aisType: number | null): ShipType {
  if (aisType === null) return 'other';
  if (aisType >= 70 && aisType <= 79) return 'general_cargo';
  if (aisType >= 80 && aisType <= 89) return 'tanker';
  if (aisType >= 60 && aisType <= 69) return 'passenger';
  return 'other';
}

/** An AIS destination's port part: after the last '>' of "FROM>TO", trimmed. */
const destinationPart = (text: string) => (text.split('>').pop() ?? '').trim();
const LOCODE_TOKEN = /\b([A-Z]{2}) ?([A-Z2-9]{3})\b/g;

const DESTINATION_FACTOR = { given: 1, locode: 1, name_exact: 0.9, locode_in_text: 0.85, name_ambiguous: 0.6, name_fuzzy: 0.5 } as const;
export type Resolution = keyof typeof DESTINATION_FACTOR;

/** The port an AIS destination names: a UN/LOCODE (whole, then within the text), else a port name. */
export async function resolveDestination(ports: Pick<PortsService, 'search' | 'byId'>, raw: string) {
  const text = destinationPart(raw);
  if (text === '') return null;
  const search = async (q: { q?: string; locode?: string }) => (await ports.search({ ...q, limit: 20 })).data.items;
  const tableRecord = (portId: number) => ports.byId(portId);
  const hits = await search({ q: text });
  const top = hits[0];
  if (top && top.match.kind === 'locode') return { port: tableRecord(top.port_id)!, resolution: 'locode' as const, candidates: hits.filter((h) => h.match.kind === 'locode').length };
  const exact = hits.filter((h) => h.match.kind === 'exact');
  if (exact.length > 0) return { port: tableRecord(exact[0]!.port_id)!, resolution: exact.length === 1 ? ('name_exact' as const) : ('name_ambiguous' as const), candidates: exact.length };
  for (const match of text.toUpperCase().matchAll(LOCODE_TOKEN)) {
    const [hit] = await search({ locode: `${match[1]}${match[2]}` });
    if (hit) return { port: tableRecord(hit.port_id)!, resolution: 'locode_in_text' as const, candidates: 1 };
  }
  if (top && top.match.score >= 0.6) return { port: tableRecord(top.port_id)!, resolution: 'name_fuzzy' as const, candidates: hits.filter((h) => h.match.score === top.match.score).length };
  return null;
}

/** Where the forecast goes: the text given or reported, how it was resolved, and the place. */
export interface ForecastDestination {
  text: string;
  resolution: Resolution;
  candidates: number;
  target: { port: { port_id: number; name: string; locode: string | null; country: string | null } | null; lat: number; lon: number };
}

/** The port the vessel's AIS destination names; throws when it is withheld (live data), empty or names no port. */
export async function aisDestination(ports: Pick<PortsService, 'search' | 'byId'>, vessel: string, presence: { voyageWithheld: boolean; destination: string | null }): Promise<ForecastDestination> {
  if (presence.voyageWithheld) {
    throw new AppError(
      'destination_unknown',
      `${vessel} was first heard less than ${DELAY_SECONDS / 3600} h ago, so its AIS destination is live data: give to (a port_id, UN/LOCODE or lat,lon), or ask for vessels:live`,
      { field: 'query.to' },
    );
  }
  const text = presence.destination?.trim() ?? '';
  if (text === '') throw new AppError('destination_unknown', `${vessel} reports no AIS destination; give to (a port_id, UN/LOCODE or lat,lon)`, { field: 'query.to' });
  const found = await resolveDestination(ports, text);
  if (found === null) {
    throw new AppError('destination_unresolved', `the AIS destination "${text}" of ${vessel} matches no port (no UN/LOCODE or port name in it); give to`, { field: 'query.to' });
  }
  const p = found.port;
  return { text, resolution: found.resolution, candidates: found.candidates, target: { port: { port_id: p.port_id, name: p.name, locode: p.locode, country: p.country }, lat: p.lat, lon: p.lon } };
}

export type SpeedSource = 'speed_kn' | 'recent_sog' | 'ship_type_default';

/** The speed: the caller's, else the mean SOG of the recent moving positions when there are enough, else the ship type's default. */
export function speedOf(givenKn: number | undefined, recentSog: readonly (number | null)[], shipType: ShipType): { kn: number; source: SpeedSource; samples: number } {
  const moving = recentSog.filter((s): s is number => s !== null && s >= MOVING_KN);
  if (givenKn !== undefined) return { kn: givenKn, source: 'speed_kn', samples: moving.length };
  if (moving.length >= MIN_SPEED_SAMPLES) return { kn: round(moving.reduce((x, y) => x + y, 0) / moving.length, 1), source: 'recent_sog', samples: moving.length };
  return { kn: DEFAULT_SPEED_KN[shipType], source: 'ship_type_default', samples: moving.length };
}

/** The ETA's confidence: the position's age (down to 0.3 at 48 h), the speed's source and how the destination was found. */
export function forecastConfidence(ageSeconds: number, speed: { source: SpeedSource; samples: number }, resolution: Resolution) {
  const positionFactor = round(Math.max(0.3, 1 - ageSeconds / 3600 / 48), 3);
  const speedFactor = speed.source === 'speed_kn' ? 0.8 : speed.source === 'recent_sog' ? (speed.samples >= 5 ? 0.9 : 0.75) : 0.5;
  const destinationFactor = DESTINATION_FACTOR[resolution];
  return { value: round(positionFactor * speedFactor * destinationFactor, 2), position_age: positionFactor, speed_source: speedFactor, destination: destinationFactor };
}
