/** Text legends, worded as gpsd 3.22 prints them so `*_text` fields compare equal. */

export const NAVIGATION_STATUS: readonly string[] = [
  'Under way using engine',
  'At anchor',
  'Not under command',
  'Restricted manoeuverability',
  'Constrained by her draught',
  'Moored',
  'Aground',
  'Engaged in fishing',
  'Under way sailing',
  'Reserved for HSC',
  'Reserved for WIG',
  'Reserved',
  'Reserved',
  'Reserved',
  'Reserved',
  'Not defined',
];

export const EPFD_TYPE: readonly string[] = ['Undefined', 'GPS', 'GLONASS', 'Combined GPS/GLONASS', 'Loran-C', 'Chayka', 'Integrated navigation system', 'Surveyed', 'Galileo'];

function shipTypeGroup(prefix: string, lastWording: string): string[] {
  return [
    `${prefix} - all ships of this type`,
    `${prefix} - Hazardous category A`,
    `${prefix} - Hazardous category B`,
    `${prefix} - Hazardous category C`,
    `${prefix} - Hazardous category D`,
    `${prefix} - Reserved for future use`,
    `${prefix} - Reserved for future use`,
    `${prefix} - Reserved for future use`,
    `${prefix} - Reserved for future use`,
    `${prefix} - ${lastWording}`,
  ];
}

export const SHIP_TYPE: readonly string[] = [
  'Not available',
  ...Array<string>(19).fill('Reserved for future use'),
  ...shipTypeGroup('Wing in ground (WIG)', 'Reserved for future use'),
  'Fishing',
  'Towing',
  'Towing: length exceeds 200m or breadth exceeds 25m',
  'Dredging or underwater ops',
  'Diving ops',
  'Military ops',
  'Sailing',
  'Pleasure Craft',
  'Reserved',
  'Reserved',
  ...shipTypeGroup('High speed craft (HSC)', 'No additional information'),
  'Pilot Vessel',
  'Search and Rescue vessel',
  'Tug',
  'Port Tender',
  'Anti-pollution equipment',
  'Law Enforcement',
  'Spare - Local Vessel',
  'Spare - Local Vessel',
  'Medical Transport',
  'Ship according to RR Resolution No. 18',
  ...shipTypeGroup('Passenger', 'No additional information'),
  ...shipTypeGroup('Cargo', 'No additional information'),
  ...shipTypeGroup('Tanker', 'No additional information'),
  ...shipTypeGroup('Other Type', 'no additional information'),
];

export const NAVAID_TYPE: readonly string[] = [
  'Unspecified',
  'Reference point',
  'RACON',
  'Fixed offshore structure',
  'Spare, Reserved for future use.',
  'Light, without sectors',
  'Light, with sectors',
  'Leading Light Front',
  'Leading Light Rear',
  'Beacon, Cardinal N',
  'Beacon, Cardinal E',
  'Beacon, Cardinal S',
  'Beacon, Cardinal W',
  'Beacon, Port hand',
  'Beacon, Starboard hand',
  'Beacon, Preferred Channel port hand',
  'Beacon, Preferred Channel starboard hand',
  'Beacon, Isolated danger',
  'Beacon, Safe water',
  'Beacon, Special mark',
  'Cardinal Mark N',
  'Cardinal Mark E',
  'Cardinal Mark S',
  'Cardinal Mark W',
  'Port hand Mark',
  'Starboard hand Mark',
  'Preferred Channel Port hand',
  'Preferred Channel Starboard hand',
  'Isolated danger',
  'Safe Water',
  'Special Mark',
  'Light Vessel / LANBY / Rigs',
];

export const STATION_TYPE: readonly string[] = [
  'All types of mobiles',
  'Reserved for future use',
  'All types of Class B mobile stations',
  'SAR airborne mobile station',
  'Aid to Navigation station',
  'Class B shipborne mobile station',
  'Regional use and inland waterways',
  'Regional use and inland waterways',
  'Regional use and inland waterways',
  'Regional use and inland waterways',
  'Reserved for future use',
  'Reserved for future use',
  'Reserved for future use',
  'Reserved for future use',
  'Reserved for future use',
  'Reserved for future use',
];

export function shipTypeText(code: number): string {
  return SHIP_TYPE[code] ?? 'INVALID SHIP TYPE';
}
export function epfdText(code: number): string {
  return EPFD_TYPE[code] ?? 'INVALID EPFD';
}
export function navaidText(code: number): string {
  return NAVAID_TYPE[code] ?? 'INVALID NAVAID TYPE';
}
