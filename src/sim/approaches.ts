/**
 * Fairways, approach waypoints and berths for the simulator's ports where the built-in ones
 * (src/geo/ports-builtin.ts) let a ship cross land on Natural Earth 1:10m (issue 17, decision 052).
 * `approach` replaces the port's approach (anchorage → open water, ending on the sea network),
 * `channel` its fairway (anchorage → berth), `berth` moves the simulated berth onto the water's edge
 * (the built-in positions are good to a few km and some lie inland). Found with the water-grid search
 * of src/routing/land-check.ts (waterPath, nearestWaterPoint) against the shipped network, rounded to
 * 0.001°; test/unit/sim/land-check.test.ts checks every port's fairway and approach.
 */
import type { LatLon } from '../geo/distance.js';

export interface SimApproach {
  berth?: LatLon;
  channel?: LatLon[];
  approach?: LatLon[];
}

export const SIM_APPROACHES: Readonly<Record<string, SimApproach>> = {
  // Felixstowe
  GBFXT: { channel: [{ lat: 51.94, lon: 1.32 }] },
  // Calais
  FRCQF: { berth: { lat: 50.98, lon: 1.854 } },
  // Barcelona
  ESBCN: { berth: { lat: 41.33, lon: 2.167 } },
  // Sines
  PTSIE: { berth: { lat: 37.94, lon: -8.87 } },
  // Gioia Tauro
  ITGIT: { berth: { lat: 38.45, lon: 15.887 } },
  // Helsinki
  FIHEL: { berth: { lat: 60.14, lon: 24.92 } },
  // Jebel Ali
  AEJEA: { berth: { lat: 25.02, lon: 55.06 } },
  // Fujairah
  AEFJR: { berth: { lat: 25.17, lon: 56.371 } },
  // Salalah
  OMSLL: { berth: { lat: 16.93, lon: 54.005 } },
  // Bandar Abbas
  IRBND: {
    approach: [
      { lat: 26.968, lon: 56.289 },
      { lat: 26.449, lon: 56.354 },
    ],
  },
  // Cape Town
  ZACPT: { berth: { lat: -33.9, lon: 18.43 } },
  // Abidjan
  CIABJ: { approach: [{ lat: 5.15, lon: -4.012 }] },
  // Luanda
  AOLAD: { channel: [{ lat: -8.76, lon: 13.256 }] },
  // Port Klang
  MYPKG: { channel: [{ lat: 2.95, lon: 101.3 }] },
  // Ningbo-Zhoushan
  CNNGB: {
    berth: { lat: 29.935, lon: 121.866 },
    channel: [{ lat: 29.97, lon: 121.966 }],
    approach: [
      { lat: 29.92, lon: 122.28 },
      { lat: 29.98, lon: 122.36 },
      { lat: 30.059, lon: 122.577 },
    ],
  },
  // Qingdao
  CNTAO: {
    channel: [
      { lat: 36.01, lon: 120.3 },
      { lat: 36.01, lon: 120.22 },
    ],
  },
  // Tokyo
  JPTYO: {
    berth: { lat: 35.62, lon: 139.802 },
    approach: [
      { lat: 35.221, lon: 139.76 },
      { lat: 34.871, lon: 139.71 },
      { lat: 34.831, lon: 139.769 },
    ],
  },
  // Yokohama
  JPYOK: {
    approach: [
      { lat: 35.111, lon: 139.76 },
      { lat: 34.851, lon: 139.74 },
      { lat: 34.831, lon: 139.769 },
    ],
  },
  // Kobe
  JPUKB: { berth: { lat: 34.67, lon: 135.232 } },
  // Nagoya
  JPNGO: {
    approach: [
      { lat: 34.87, lon: 136.824 },
      { lat: 34.494, lon: 136.856 },
      { lat: 34.422, lon: 136.928 },
      { lat: 34.382, lon: 136.92 },
      { lat: 34.262, lon: 136.896 },
      { lat: 33.502, lon: 135.856 },
      { lat: 33.43, lon: 135.768 },
      { lat: 33.286, lon: 135.36 },
    ],
  },
  // Cai Mep
  VNCMP: { channel: [{ lat: 10.49, lon: 106.992 }] },
  // Mundra
  INMUN: {
    approach: [
      { lat: 22.476, lon: 69.02 },
      { lat: 21.903, lon: 68.497 },
    ],
  },
  // Chennai
  INMAA: { berth: { lat: 13.09, lon: 80.305 } },
  // Sydney (Port Botany)
  AUSYD: { channel: [{ lat: -34.01, lon: 151.24 }] },
  // Fremantle
  AUFRE: { berth: { lat: -32.05, lon: 115.728 } },
  // Newcastle
  AUNTL: { berth: { lat: -32.93, lon: 151.79 } },
  // Los Angeles
  USLAX: { channel: [{ lat: 33.7, lon: -118.26 }] },
  // Long Beach
  USLGB: { channel: [{ lat: 33.72, lon: -118.21 }] },
  // Oakland
  USOAK: { channel: [{ lat: 37.82, lon: -122.37 }] },
  // Vancouver
  CAVAN: { channel: [{ lat: 49.31, lon: -123.14 }] },
  // Norfolk
  USORF: { channel: [{ lat: 36.96, lon: -76.33 }] },
  // Manzanillo
  MXZLO: { channel: [{ lat: 19.08, lon: -104.35 }] },
  // Veracruz
  MXVER: { berth: { lat: 19.2, lon: -96.119 } },
  // Cartagena
  COCTG: {
    berth: { lat: 10.39, lon: -75.53 },
    channel: [{ lat: 10.39, lon: -75.58 }],
    approach: [
      { lat: 10.39, lon: -75.58 },
      { lat: 10.389, lon: -75.559 },
    ],
  },
  // Freeport
  BSFPO: { berth: { lat: 26.515, lon: -78.776 } },
  // Santos
  BRSSZ: {
    berth: { lat: -23.955, lon: -46.305 },
    channel: [
      { lat: -24.006, lon: -46.317 },
      { lat: -23.982, lon: -46.285 },
    ],
  },
  // Rio de Janeiro
  BRRIO: { berth: { lat: -22.88, lon: -43.185 }, channel: [{ lat: -22.9, lon: -43.135 }] },
  // San Antonio
  CLSAI: { berth: { lat: -33.59, lon: -71.65 } },
  // Callao
  PECLL: { berth: { lat: -12.045, lon: -77.16 } },
};
