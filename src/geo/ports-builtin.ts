/**
 * A curated set of major world ports, written from public knowledge (not from an imported
 * dataset): UN/LOCODE, name, ISO country, an approximate berth position, size, and an anchorage
 * point offshore. `channel` lists the fairway waypoints from the anchorage to the berth where a
 * straight line would cross land, and `approach` the waypoints from the anchorage out to open
 * water, where the port joins the sea-lane network.
 */
import type { LatLon } from './distance.js';

export interface BuiltinPort {
  locode: string;
  name: string;
  country: string;
  lat: number;
  lon: number;
  size: 'large' | 'medium';
  anchorage: LatLon;
  channel?: LatLon[];
  approach?: LatLon[];
}

type Row = [
  locode: string,
  name: string,
  country: string,
  lat: number,
  lon: number,
  size: 'L' | 'M',
  anchorLat: number,
  anchorLon: number,
  channel?: [number, number][],
  approach?: [number, number][],
];

// one port a line: prettier would spread the rows holding waypoints over a dozen lines each
// prettier-ignore
const ROWS: Row[] = [
  // Europe
  ['NLRTM', 'Rotterdam', 'NL', 51.955, 4.045, 'L', 52.06, 3.7],
  ['BEZEE', 'Zeebrugge', 'BE', 51.345, 3.195, 'M', 51.42, 2.95],
  ['DEBRV', 'Bremerhaven', 'DE', 53.56, 8.55, 'L', 53.95, 8.1],
  ['GBFXT', 'Felixstowe', 'GB', 51.95, 1.32, 'L', 51.9, 1.6],
  ['GBLGP', 'London Gateway', 'GB', 51.505, 0.48, 'M', 51.55, 1.2],
  ['GBDVR', 'Dover', 'GB', 51.12, 1.33, 'M', 51.1, 1.4],
  ['FRCQF', 'Calais', 'FR', 50.97, 1.87, 'M', 51.0, 1.8],
  ['FRLEH', 'Le Havre', 'FR', 49.48, 0.12, 'L', 49.53, -0.05],
  ['FRMRS', 'Marseille-Fos', 'FR', 43.4, 4.88, 'L', 43.3, 4.9],
  ['ESALG', 'Algeciras', 'ES', 36.13, -5.43, 'L', 36.1, -5.4],
  ['ESVLC', 'Valencia', 'ES', 39.44, -0.31, 'L', 39.45, -0.2],
  ['ESBCN', 'Barcelona', 'ES', 41.34, 2.16, 'L', 41.3, 2.25],
  ['PTSIE', 'Sines', 'PT', 37.95, -8.87, 'M', 37.92, -8.95],
  ['ITGOA', 'Genoa', 'IT', 44.4, 8.9, 'L', 44.36, 8.87],
  ['ITGIT', 'Gioia Tauro', 'IT', 38.45, 15.9, 'M', 38.47, 15.84],
  ['MTMAR', 'Marsaxlokk', 'MT', 35.82, 14.55, 'M', 35.8, 14.62],
  ['GRPIR', 'Piraeus', 'GR', 37.95, 23.58, 'L', 37.9, 23.53],
  ['TRAMR', 'Ambarli', 'TR', 40.97, 28.68, 'L', 40.93, 28.75],
  ['EGPSD', 'Port Said', 'EG', 31.26, 32.31, 'L', 31.38, 32.3],
  ['EGALY', 'Alexandria', 'EG', 31.18, 29.87, 'L', 31.25, 29.8],
  ['MAPTM', 'Tanger Med', 'MA', 35.89, -5.5, 'L', 35.93, -5.45],
  ['MACAS', 'Casablanca', 'MA', 33.61, -7.6, 'M', 33.66, -7.6],
  ['DKAAR', 'Aarhus', 'DK', 56.15, 10.23, 'M', 56.13, 10.35],
  ['SEGOT', 'Gothenburg', 'SE', 57.69, 11.85, 'L', 57.62, 11.65],
  ['PLGDN', 'Gdansk', 'PL', 54.4, 18.7, 'M', 54.52, 18.9],
  ['FIHEL', 'Helsinki', 'FI', 60.15, 24.92, 'M', 60.08, 24.95],
  ['EETLL', 'Tallinn', 'EE', 59.45, 24.77, 'M', 59.5, 24.75],
  ['RULED', 'Saint Petersburg', 'RU', 59.88, 30.2, 'M', 59.98, 29.6],
  // Middle East and Africa
  ['AEJEA', 'Jebel Ali', 'AE', 25.01, 55.06, 'L', 25.1, 54.95],
  ['AEFJR', 'Fujairah', 'AE', 25.17, 56.36, 'L', 25.2, 56.45],
  ['OMSLL', 'Salalah', 'OM', 16.94, 54.0, 'L', 16.88, 54.06],
  ['SAJED', 'Jeddah', 'SA', 21.47, 39.15, 'L', 21.45, 39.05],
  ['QARLF', 'Ras Laffan', 'QA', 25.92, 51.6, 'L', 26.0, 51.7],
  ['SARTA', 'Ras Tanura', 'SA', 26.64, 50.16, 'L', 26.7, 50.3],
  ['IRBND', 'Bandar Abbas', 'IR', 27.1, 56.06, 'L', 27.05, 56.15, [], [[26.95, 56.38]]],
  ['DJJIB', 'Djibouti', 'DJ', 11.6, 43.13, 'M', 11.66, 43.1],
  ['KEMBA', 'Mombasa', 'KE', -4.075, 39.68, 'M', -4.1, 39.76],
  ['ZADUR', 'Durban', 'ZA', -29.87, 31.03, 'L', -29.9, 31.1],
  ['ZACPT', 'Cape Town', 'ZA', -33.91, 18.43, 'L', -33.88, 18.4],
  ['NGLOS', 'Lagos (Apapa)', 'NG', 6.42, 3.4, 'L', 6.3, 3.35],
  ['TGLFW', 'Lome', 'TG', 6.14, 1.28, 'M', 6.05, 1.28],
  ['CIABJ', 'Abidjan', 'CI', 5.26, -4.01, 'M', 5.15, -4.0],
  ['SNDKR', 'Dakar', 'SN', 14.68, -17.43, 'M', 14.65, -17.38],
  ['AOLAD', 'Luanda', 'AO', -8.8, 13.24, 'M', -8.75, 13.2],
  // Asia
  ['SGSIN', 'Singapore', 'SG', 1.265, 103.8, 'L', 1.22, 103.78],
  ['MYTPP', 'Tanjung Pelepas', 'MY', 1.36, 103.55, 'L', 1.3, 103.55],
  ['MYPKG', 'Port Klang', 'MY', 2.99, 101.33, 'L', 2.95, 101.2],
  ['CNSHA', 'Shanghai (Yangshan)', 'CN', 30.62, 122.07, 'L', 30.55, 122.2],
  ['CNNGB', 'Ningbo-Zhoushan', 'CN', 29.93, 121.86, 'L', 29.92, 122.0, [], [[29.9, 122.35], [30.1, 122.6]]],
  ['CNSZX', 'Shenzhen (Yantian)', 'CN', 22.57, 114.28, 'L', 22.5, 114.35, [], [[22.35, 114.45], [22.0, 114.5]]],
  ['HKHKG', 'Hong Kong', 'HK', 22.31, 114.12, 'L', 22.23, 114.02, [], [[22.15, 114.0], [21.9, 114.2]]],
  ['CNTAO', 'Qingdao', 'CN', 36.0, 120.2, 'L', 35.95, 120.35],
  ['CNTXG', 'Tianjin', 'CN', 38.98, 117.78, 'L', 38.95, 118.05],
  ['CNXMN', 'Xiamen', 'CN', 24.45, 118.07, 'L', 24.4, 118.2],
  ['KRPUS', 'Busan', 'KR', 35.08, 129.05, 'L', 35.04, 129.1],
  ['JPTYO', 'Tokyo', 'JP', 35.62, 139.79, 'L', 35.55, 139.85, [], [[35.3, 139.75], [34.9, 139.8]]],
  ['JPYOK', 'Yokohama', 'JP', 35.45, 139.67, 'L', 35.42, 139.72, [], [[35.3, 139.75], [34.9, 139.8]]],
  ['JPUKB', 'Kobe', 'JP', 34.67, 135.22, 'L', 34.62, 135.25],
  ['JPNGO', 'Nagoya', 'JP', 35.03, 136.85, 'L', 34.95, 136.82, [], [[34.6, 136.95], [34.25, 137.3], [33.35, 136.0], [33.2, 135.4]]],
  ['TWKHH', 'Kaohsiung', 'TW', 22.61, 120.27, 'L', 22.55, 120.22],
  ['VNCMP', 'Cai Mep', 'VN', 10.53, 107.02, 'M', 10.35, 107.05],
  ['THLCH', 'Laem Chabang', 'TH', 13.08, 100.88, 'L', 13.05, 100.8],
  ['IDTPP', 'Tanjung Priok', 'ID', -6.1, 106.88, 'L', -6.02, 106.88],
  ['PHMNL', 'Manila', 'PH', 14.58, 120.95, 'L', 14.55, 120.9, [], [[14.38, 120.6]]],
  ['LKCMB', 'Colombo', 'LK', 6.95, 79.84, 'L', 6.95, 79.79],
  ['INNSA', 'Nhava Sheva', 'IN', 18.95, 72.95, 'L', 18.9, 72.83],
  ['INMUN', 'Mundra', 'IN', 22.74, 69.7, 'L', 22.68, 69.65],
  ['PKKHI', 'Karachi', 'PK', 24.83, 66.98, 'L', 24.78, 66.95],
  ['INMAA', 'Chennai', 'IN', 13.1, 80.3, 'L', 13.1, 80.36],
  ['BDCGP', 'Chittagong', 'BD', 22.3, 91.8, 'M', 22.1, 91.75],
  // Oceania
  ['AUSYD', 'Sydney (Port Botany)', 'AU', -33.97, 151.22, 'L', -33.99, 151.3],
  ['AUFRE', 'Fremantle', 'AU', -32.05, 115.74, 'L', -32.05, 115.67],
  ['AUPHE', 'Port Hedland', 'AU', -20.31, 118.58, 'L', -20.1, 118.55],
  ['AUNTL', 'Newcastle', 'AU', -32.92, 151.79, 'L', -32.95, 151.86],
  ['NZAKL', 'Auckland', 'NZ', -36.84, 174.77, 'M', -36.8, 174.85],
  // Americas
  ['USNYC', 'New York and New Jersey', 'US', 40.66, -74.07, 'L', 40.45, -73.85, [[40.5, -74.01], [40.605, -74.045]]],
  ['USSAV', 'Savannah', 'US', 32.08, -81.09, 'L', 31.95, -80.75, [[32.03, -80.9]]],
  ['USHOU', 'Houston', 'US', 29.685, -94.99, 'L', 29.25, -94.65, [[29.33, -94.7], [29.5, -94.87]]],
  ['USLAX', 'Los Angeles', 'US', 33.73, -118.26, 'L', 33.7, -118.2],
  ['USLGB', 'Long Beach', 'US', 33.75, -118.21, 'L', 33.72, -118.15],
  ['USOAK', 'Oakland', 'US', 37.8, -122.32, 'L', 37.78, -122.65, [[37.81, -122.48], [37.8, -122.4]]],
  ['CAVAN', 'Vancouver', 'CA', 49.29, -123.09, 'L', 49.3, -123.22],
  ['USCHS', 'Charleston', 'US', 32.78, -79.92, 'M', 32.7, -79.75],
  ['USMIA', 'Miami', 'US', 25.77, -80.17, 'M', 25.76, -80.08],
  ['USORF', 'Norfolk', 'US', 36.92, -76.33, 'L', 36.97, -76.05, [[36.96, -76.25]]],
  ['CAHAL', 'Halifax', 'CA', 44.64, -63.56, 'M', 44.55, -63.5],
  ['MXZLO', 'Manzanillo', 'MX', 19.06, -104.3, 'L', 19.03, -104.35],
  ['MXVER', 'Veracruz', 'MX', 19.2, -96.13, 'M', 19.22, -96.05],
  ['PAONX', 'Colon (Manzanillo)', 'PA', 9.36, -79.88, 'L', 9.41, -79.92],
  ['PABLB', 'Balboa', 'PA', 8.95, -79.57, 'L', 8.88, -79.52],
  ['COCTG', 'Cartagena', 'CO', 10.4, -75.53, 'M', 10.35, -75.6],
  ['BSFPO', 'Freeport', 'BS', 26.52, -78.77, 'M', 26.48, -78.78],
  ['BRSSZ', 'Santos', 'BR', -23.96, -46.31, 'L', -24.05, -46.3],
  ['BRRIO', 'Rio de Janeiro', 'BR', -22.89, -43.19, 'M', -22.95, -43.15],
  ['BRTUB', 'Tubarao', 'BR', -20.29, -40.24, 'L', -20.25, -40.15],
  ['ARBUE', 'Buenos Aires', 'AR', -34.58, -58.37, 'M', -34.55, -58.1],
  ['UYMVD', 'Montevideo', 'UY', -34.9, -56.21, 'M', -34.97, -56.2],
  ['CLSAI', 'San Antonio', 'CL', -33.59, -71.62, 'M', -33.57, -71.66],
  ['PECLL', 'Callao', 'PE', -12.05, -77.15, 'L', -12.03, -77.2],
];

const points = (rows: [number, number][] | undefined): LatLon[] => (rows ?? []).map(([lat, lon]) => ({ lat, lon }));

export const BUILTIN_PORTS: readonly BuiltinPort[] = ROWS.map(([locode, name, country, lat, lon, size, anchorLat, anchorLon, channel, approach]) => ({
  locode,
  name,
  country,
  lat,
  lon,
  size: size === 'L' ? 'large' : 'medium',
  anchorage: { lat: anchorLat, lon: anchorLon },
  ...(channel?.length ? { channel: points(channel) } : {}),
  ...(approach?.length ? { approach: points(approach) } : {}),
}));
