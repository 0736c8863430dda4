/** Search categories of AIS ship and cargo type codes (ITU-R M.1371 table 53). */
export const SHIP_CATEGORIES = ['cargo', 'tanker', 'passenger', 'fishing', 'tug', 'pleasure', 'high_speed', 'sailing', 'military', 'other'] as const;
export type ShipCategory = (typeof SHIP_CATEGORIES)[number];

/** Category of a ship type code; null when the type is not reported (0 or absent). */
export function shipCategory(shipType: number | null): ShipCategory | null {
  if (shipType === null || shipType <= 0 || shipType > 99) return null;
  if (shipType >= 70 && shipType <= 79) return 'cargo';
  if (shipType >= 80 && shipType <= 89) return 'tanker';
  if (shipType >= 60 && shipType <= 69) return 'passenger';
  if (shipType >= 40 && shipType <= 49) return 'high_speed';
  switch (shipType) {
    case 30:
      return 'fishing';
    case 31:
    case 32:
    case 52:
      return 'tug';
    case 35:
      return 'military';
    case 36:
      return 'sailing';
    case 37:
      return 'pleasure';
    default:
      return 'other';
  }
}
