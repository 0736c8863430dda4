/**
 * The event layer's chokepoint keys (src/events/chokepoints.ts) and the routing passage each one is;
 * null: the event layer watches it but the sea network does not mark it, so it cannot be closed.
 */
export const CHOKEPOINT_PASSAGES: Readonly<Record<string, string | null>> = {
  suez: 'suez',
  panama: 'panama',
  bosporus: 'bosporus',
  bab_el_mandeb: 'babelmandeb',
  malacca: 'malacca',
  hormuz: 'hormuz',
  cape_of_good_hope: 'good_hope',
  gibraltar: 'gibraltar',
  dover: 'dover',
  oresund: null,
  taiwan_strait: null,
  lombok: null,
};
