/**
 * The sources of the resource_infra layer, declared as data (docs/resource-infra.md): where each
 * file lies under the shared data directory, its licence and required attribution line, the parser
 * that reads it, its release and expected update cadence, and the totals its provenance states
 * (the reference the coverage operations compare against). Candidate sources checked but not
 * shipped are declared too: they feed the coverage backlog, candidates and blockers.
 */

export type ParserId = 'gem_lng_gas' | 'gem_coal_terminals' | 'gem_oil_gas_extraction' | 'gem_gogpt' | 'gem_gnpt' | 'gem_gcpt' | 'emodnet_windfarms_polygons' | 'emodnet_windfarms_points';

export interface ReferenceCount {
  /** What is counted, e.g. `terminals (distinct url)`. */
  measure: string;
  value: number;
  /**
   * Which layer quantity answers it: rows read by the newest successful run, objects stored (of
   * `categories` when given), resolved (objects + rows or plants skipped by the source's rules), or
   * distinct countries of the stored objects.
   */
  compare: 'rows' | 'objects' | 'resolved' | 'countries';
  categories?: string[];
}

export interface InfraSource {
  id: string;
  title: string;
  publisher: string;
  /** Path relative to the shared data directory (../shared/data/infra); `--file` replaces it. */
  file: string;
  format: 'csv' | 'csv.gz' | 'shapefile' | 'xlsx';
  parser: ParserId;
  licence: string;
  licenceUrl: string;
  attribution: string;
  /** Release date of the shipped file (ISO date). */
  release: string;
  /** Days after which a newer release is expected (GEM trackers: about yearly; EMODnet: twice a year). */
  cadenceDays: number;
  categories: string[];
  coverageArea: string;
  /** Totals stated in ../shared/data/infra/PROVENANCE.md for the shipped file. */
  reference: ReferenceCount[];
  /** Rules the pipeline applies to this source, as published in /sources. */
  rules: string[];
}

const CC_BY = 'CC BY 4.0';
const CC_BY_URL = 'https://creativecommons.org/licenses/by/4.0/';

export const INFRA_SOURCES: readonly InfraSource[] = [
  {
    id: 'gem_ggit_lng',
    title: 'Global Gas Infrastructure Tracker: LNG terminals and gas pipelines',
    publisher: 'Global Energy Monitor',
    file: 'gem-lng-gas/LNG_Terminals-map-file-2024-10-08.csv.gz',
    format: 'csv.gz',
    parser: 'gem_lng_gas',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Gas Infrastructure Tracker, September 2024 release. CC BY 4.0',
    release: '2024-10-08',
    cadenceDays: 365,
    categories: ['lng_import_terminal', 'lng_export_terminal', 'gas_pipeline', 'pipeline_landfall'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows', value: 4358, compare: 'rows' },
      { measure: 'LNG terminals (distinct url and direction)', value: 805, compare: 'objects', categories: ['lng_import_terminal', 'lng_export_terminal'] },
      { measure: 'gas pipeline rows', value: 3067, compare: 'objects', categories: ['gas_pipeline'] },
    ],
    rules: [
      'LNG unit/phase rows become one terminal per url and direction (import/export): capacity summed (MTPA), the most advanced status, units listed; id = source + lowest unit id.',
      'fsru is true when the terminal or a unit name says FSRU, FLNG or floating.',
      'Each pipeline row is one gas_pipeline object with its WKT line; a pipeline_landfall point is derived at every vertex where the line passes between land and sea (Natural Earth 1:10m).',
    ],
  },
  {
    id: 'gem_gctt',
    title: 'Global Coal Terminals Tracker',
    publisher: 'Global Energy Monitor',
    file: 'gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv',
    format: 'csv',
    parser: 'gem_coal_terminals',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Coal Terminals Tracker, January 2025 release. CC BY 4.0',
    release: '2025-01-15',
    cadenceDays: 365,
    categories: ['bulk_terminal'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows', value: 521, compare: 'rows' },
      { measure: 'terminals (gem-terminal-id)', value: 468, compare: 'objects' },
      { measure: 'countries', value: 46, compare: 'countries' },
    ],
    rules: ['One bulk_terminal (subcategory coal) per gem-terminal-id; capacity in Mt/yr summed over units.', 'Rows with lat/lng "-" fail with missing_location.'],
  },
  {
    id: 'gem_goget',
    title: 'Global Oil and Gas Extraction Tracker',
    publisher: 'Global Energy Monitor',
    file: 'gem-oil-gas-extraction/Oil_Gas_Extraction-map-file-2025-02-26.csv.gz',
    format: 'csv.gz',
    parser: 'gem_oil_gas_extraction',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Oil and Gas Extraction Tracker, February 2025 release. CC BY 4.0',
    release: '2025-02-26',
    cadenceDays: 365,
    categories: ['offshore_oil_gas_field'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows', value: 7396, compare: 'rows' },
      { measure: 'units (unit-id), offshore kept and onshore skipped', value: 7396, compare: 'resolved' },
    ],
    rules: [
      'One offshore_oil_gas_field per unit-id whose point lies at sea (Natural Earth 1:10m); fields on land are skipped as onshore (counted, not stored).',
      'Rows with |lat| > 90 fail: swapped_coordinates, or placeholder_coordinates when three or more rows carry the same pair.',
      'Field centroids, not platforms.',
    ],
  },
  {
    id: 'gem_gogpt',
    title: 'Global Oil and Gas Plant Tracker',
    publisher: 'Global Energy Monitor',
    file: 'gem-power/gogpt-map-data-2024-08-29.csv.gz',
    format: 'csv.gz',
    parser: 'gem_gogpt',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Oil and Gas Plant Tracker, August 2024 release. CC BY 4.0',
    release: '2024-08-29',
    cadenceDays: 365,
    categories: ['coastal_power_plant'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows', value: 12436, compare: 'rows' },
      { measure: 'plants (url), coastal kept and inland skipped', value: 5441, compare: 'resolved' },
    ],
    rules: ['Units aggregated per plant url (MW summed); a plant is kept when its first unit lies at sea or within 10 km of the coast, otherwise skipped as inland.'],
  },
  {
    id: 'gem_gnpt',
    title: 'Global Nuclear Power Tracker',
    publisher: 'Global Energy Monitor',
    file: 'gem-power/gnpt-map-data-2024-07-17.csv',
    format: 'csv',
    parser: 'gem_gnpt',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Nuclear Power Tracker, July 2024 release. CC BY 4.0',
    release: '2024-07-17',
    cadenceDays: 365,
    categories: ['coastal_power_plant'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows', value: 1541, compare: 'rows' },
      { measure: 'plants (url), coastal kept and inland skipped', value: 521, compare: 'resolved' },
    ],
    rules: ['Reactor units aggregated per plant url (MW summed); kept when at sea or within 10 km of the coast, otherwise skipped as inland.'],
  },
  {
    id: 'gem_gcpt',
    title: 'Global Coal Plant Tracker',
    publisher: 'Global Energy Monitor',
    file: 'gem-power/Global-Coal-Plant-Tracker-July-2024.xlsx',
    format: 'xlsx',
    parser: 'gem_gcpt',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'Global Energy Monitor, Global Coal Plant Tracker, July 2024 release. CC BY 4.0',
    release: '2024-07-30',
    cadenceDays: 365,
    categories: ['coastal_power_plant'],
    coverageArea: 'global',
    reference: [
      { measure: 'rows (sheet Units)', value: 14004, compare: 'rows' },
      { measure: 'plants (GEM location ID), coastal kept and inland skipped', value: 4721, compare: 'resolved' },
    ],
    rules: ['Sheet Units read row by row (exceljs streaming reader); units aggregated per GEM location ID (MW summed); kept when at sea or within 10 km of the coast, otherwise skipped as inland.'],
  },
  {
    id: 'emodnet_wind_polygons',
    title: 'EMODnet Human Activities, offshore wind farms (footprints)',
    publisher: 'EMODnet Human Activities (data originator CETMAR)',
    file: 'emodnet-windfarms/EMODnet_HA_Energy_WindFarms_pg_20260127.shp',
    format: 'shapefile',
    parser: 'emodnet_windfarms_polygons',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'EMODnet Human Activities, Wind Farms (data originator CETMAR), version 2026-01-27, https://emodnet.ec.europa.eu/en/human-activities, CC BY 4.0',
    release: '2026-01-27',
    cadenceDays: 182,
    categories: ['offshore_wind_farm'],
    coverageArea: 'European seas',
    reference: [
      { measure: 'features', value: 600, compare: 'rows' },
      { measure: 'farm footprints', value: 600, compare: 'objects' },
      { measure: 'countries', value: 15, compare: 'countries' },
    ],
    rules: ['One offshore_wind_farm per feature with its Polygon/MultiPolygon; id = source + country + name (+ ~n for repeated phase names).'],
  },
  {
    id: 'emodnet_wind_points',
    title: 'EMODnet Human Activities, offshore wind farms (points without footprint)',
    publisher: 'EMODnet Human Activities (data originator CETMAR)',
    file: 'emodnet-windfarms/EMODnet_HA_Energy_WindFarms_pt_20260127.shp',
    format: 'shapefile',
    parser: 'emodnet_windfarms_points',
    licence: CC_BY,
    licenceUrl: CC_BY_URL,
    attribution: 'EMODnet Human Activities, Wind Farms (data originator CETMAR), version 2026-01-27, https://emodnet.ec.europa.eu/en/human-activities, CC BY 4.0',
    release: '2026-01-27',
    cadenceDays: 182,
    categories: ['offshore_wind_farm'],
    coverageArea: 'European seas',
    reference: [
      { measure: 'features', value: 438, compare: 'rows' },
      { measure: 'farm points', value: 438, compare: 'objects' },
      { measure: 'countries', value: 19, compare: 'countries' },
    ],
    rules: ['One offshore_wind_farm per point feature; 0 in N_TURBINES or START_YEAR means unknown (null).'],
  },
];

/** Sources checked and not shipped (PROVENANCE.md, "Candidates checked but not copied"). */
export interface CandidateSource {
  id: string;
  title: string;
  licence: string;
  categories: string[];
  blocker: 'not_in_reachable_snapshots' | 'non_commercial_licence' | 'too_large' | 'runtime_download_only' | 'licence_unverified' | 'not_maritime';
  detail: string;
  obtain: string;
}

export const CANDIDATE_SOURCES: readonly CandidateSource[] = [
  {
    id: 'wri_gppd',
    title: 'WRI Global Power Plant Database v1.3.0',
    licence: CC_BY,
    categories: ['coastal_power_plant'],
    blocker: 'not_in_reachable_snapshots',
    detail: 'The 12 MB CSV is missing from every reachable snapshot; not maintained since 2022-01.',
    obtain: 'WRI official zip globalpowerplantdatabasev130.zip, then bosun layers ingest with a new source',
  },
  {
    id: 'gem_gwpt',
    title: 'GEM Global Wind Power Tracker (global offshore wind)',
    licence: CC_BY,
    categories: ['offshore_wind_farm'],
    blocker: 'not_in_reachable_snapshots',
    detail: 'Every version is 4 MiB or more and absent here.',
    obtain: 'GlobalEnergyMonitor/maps trackers, wind',
  },
  {
    id: 'gem_goit',
    title: 'GEM Global Oil Infrastructure Tracker (oil pipelines)',
    licence: CC_BY,
    categories: ['oil_pipeline'],
    blocker: 'not_in_reachable_snapshots',
    detail: 'Every version is 4 MiB or more and absent here.',
    obtain: 'GlobalEnergyMonitor/maps trackers, goit',
  },
  {
    id: 'bsee_platforms',
    title: 'BOEM/BSEE Gulf of Mexico platforms',
    licence: 'US federal, public domain',
    categories: ['offshore_platform'],
    blocker: 'runtime_download_only',
    detail: 'No copy in any reachable repository.',
    obtain: 'data.bsee.gov PlatStrucRawData.zip at run time',
  },
  {
    id: 'ogim',
    title: 'OGIM v2.7 (EDF/MethaneSAT): platforms, LNG, refineries, petroleum terminals',
    licence: CC_BY,
    categories: ['offshore_platform', 'refinery', 'oil_terminal'],
    blocker: 'too_large',
    detail: 'A multi-GB GeoPackage on Zenodo.',
    obtain: 'Zenodo OGIM release',
  },
  {
    id: 'telegeography_landings',
    title: 'TeleGeography submarine cable landing points',
    licence: 'CC BY-NC-SA 3.0',
    categories: ['cable_landing'],
    blocker: 'non_commercial_licence',
    detail: 'Non-commercial: cannot be the shipped default; optional user-supplied data only.',
    obtain: 'telegeography/www.submarinecablemap.com landing-point-geo.json (user-supplied)',
  },
  {
    id: 'gfw_offshore_infrastructure',
    title: 'GFW industrial activity at sea: offshore infrastructure',
    licence: 'unverified (GFW data is usually non-commercial)',
    categories: ['offshore_platform'],
    blocker: 'licence_unverified',
    detail: 'The repository holds code only; data on the GFW portal.',
    obtain: 'GFW portal (user-supplied)',
  },
  {
    id: 'emodnet_offshore_installations',
    title: 'EMODnet offshore installations (oil and gas platforms, Europe)',
    licence: CC_BY,
    categories: ['offshore_platform'],
    blocker: 'runtime_download_only',
    detail: 'Only through EMODnet WFS or downloads.',
    obtain: 'EMODnet Human Activities WFS',
  },
  {
    id: 'eia_us_refineries',
    title: 'EIA US refineries and terminals (2015)',
    licence: 'US public domain',
    categories: ['refinery'],
    blocker: 'not_maritime',
    detail: 'US-only and 2015; left out in favour of global sources.',
    obtain: 'RDCEP/energy-maps Petroleum_Refineries_US_2015.geojson',
  },
];

/** The categories of the layer and their map style keys (the map UI contract). */
export const INFRA_CATEGORIES: ReadonlyArray<{ id: string; label: string; geometry: string; style: { color: string; icon: string }; offshore: boolean }> = [
  { id: 'lng_import_terminal', label: 'LNG import terminal', geometry: 'Point', style: { color: '#1f77b4', icon: 'lng-import' }, offshore: false },
  { id: 'lng_export_terminal', label: 'LNG export terminal', geometry: 'Point', style: { color: '#17becf', icon: 'lng-export' }, offshore: false },
  { id: 'gas_pipeline', label: 'Gas pipeline', geometry: 'LineString', style: { color: '#ff7f0e', icon: 'pipeline' }, offshore: false },
  { id: 'pipeline_landfall', label: 'Pipeline landfall', geometry: 'Point', style: { color: '#d62728', icon: 'landfall' }, offshore: false },
  { id: 'bulk_terminal', label: 'Bulk terminal (coal)', geometry: 'Point', style: { color: '#7f7f7f', icon: 'bulk' }, offshore: false },
  { id: 'offshore_oil_gas_field', label: 'Offshore oil and gas field', geometry: 'Point', style: { color: '#8c564b', icon: 'field' }, offshore: true },
  { id: 'coastal_power_plant', label: 'Coastal power plant', geometry: 'Point', style: { color: '#9467bd', icon: 'power' }, offshore: false },
  { id: 'offshore_wind_farm', label: 'Offshore wind farm', geometry: 'Polygon', style: { color: '#2ca02c', icon: 'wind' }, offshore: true },
];

/** Categories the taxonomy names that no shipped source covers (from the candidates). */
export const UNCOVERED_CATEGORIES = [...new Set(CANDIDATE_SOURCES.flatMap((c) => c.categories))].filter((c) => !INFRA_CATEGORIES.some((k) => k.id === c)).sort();

export const sourceById = (id: string) => INFRA_SOURCES.find((s) => s.id === id);
