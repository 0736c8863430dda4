import type { ValueVocabulary } from '../../http/query-vocabulary.js';

/**
 * One ship_type vocabulary for every operation (issue 29): the AIS categories the vessel and lane
 * operations count by (fleet/ship-types.ts) and the finer types the route operations size speed and fuel
 * by (routes/ship-types.ts) are both accepted everywhere. A finer type stands for its AIS category where
 * an operation counts by category (container → cargo, lng → tanker); a category stands for the route
 * type it is closest to where an operation needs a route type (cargo → general_cargo, the rest → other).
 */
const SHIP_TYPES_SHARED = {
  container: ['cargo'],
  bulk: ['cargo'],
  general_cargo: ['cargo'],
  ro_ro: ['cargo'],
  lng: ['tanker'],
  cargo: ['general_cargo'],
  fishing: ['other'],
  tug: ['other'],
  pleasure: ['other'],
  high_speed: ['other'],
  sailing: ['other'],
  military: ['other'],
} as const;

/** By parameter name: ship_type, and the vessel-type filters of vessel search (`type`) and congestion (`vessel_type`). */
export const SHIP_TYPE_VOCABULARY: ValueVocabulary = { ship_type: SHIP_TYPES_SHARED, type: SHIP_TYPES_SHARED, vessel_type: SHIP_TYPES_SHARED };
