/** The ship types route operations accept (speed defaults, fuel reference ships). */
export const SHIP_TYPES = ['container', 'tanker', 'bulk', 'general_cargo', 'lng', 'ro_ro', 'passenger', 'other'] as const;
export type ShipType = (typeof SHIP_TYPES)[number];

/** Typical service speeds (knots) assumed when speed_kn is not given; the `other` row applies without ship_type. */
export const DEFAULT_SPEED_KN: Readonly<Record<ShipType, number>> = {
  container: 18,
  tanker: 13,
  bulk: 12.5,
  general_cargo: 12,
  lng: 17,
  ro_ro: 16,
  passenger: 20,
  other: 14,
};
