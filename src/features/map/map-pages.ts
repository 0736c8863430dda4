import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PageDefinition, PageRequest, PageResponse } from '../../http/pages.js';
import type { ConsoleSession } from '../console/console-sessions.js';
import { html } from '../web/html.js';
import { layout } from '../web/layout.js';
import { MAP_CLIENT_JS, MAP_CSS, LEGEND } from './map-client.js';
import { MAP_POLL_SECONDS, type FeatureCollection, type MapService, type MapViewer } from './map-service.js';
import { DELAY_SECONDS } from '../vessels/entitlements.js';
import { COAST_DETAIL, COAST_DETAIL_ATTRIBUTION, coastBoxProblem, coastDetail } from './coast-detail.js';
import type { Box } from '../../geo/clip.js';

export interface MapDeps {
  map: MapService;
  /** The console session of a cookie (the signed-in operator), or undefined. */
  /** The operator's console session; `renew: false` for background data polls (they do not restart its idle hour). */
  resumeSession(cookie: string | undefined, options?: { renew?: boolean }): Promise<ConsoleSession | undefined>;
  sessionCookie: string;
}

/** A body sent as it is or gzipped, as the browser accepts; the gzip is made once per body. */
interface Encoded {
  raw: Buffer;
  gzip: Buffer;
}

const encode = (raw: Buffer): Encoded => ({ raw, gzip: gzipSync(raw, { level: 6 }) });

function send(req: PageRequest, body: Encoded, contentType: string, cacheControl: string): PageResponse {
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const gzip = /\bgzip\b/.test(accepts);
  return {
    body: gzip ? body.gzip : body.raw,
    contentType,
    headers: { 'cache-control': cacheControl, vary: 'accept-encoding', ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
  };
}

const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = dirname(require.resolve('maplibre-gl/package.json')) + '/dist';

/** Files of maplibre-gl served by Bosun (no CDN): the module, its worker (loaded from beside it) and its stylesheet. */
const MAPLIBRE_FILES: Record<string, string> = {
  'maplibre-gl.mjs': 'text/javascript; charset=utf-8',
  'maplibre-gl-worker.mjs': 'text/javascript; charset=utf-8',
  'maplibre-gl.css': 'text/css; charset=utf-8',
};

const ASSET_CACHE = 'public, max-age=86400';
const DATA_CACHE = 'no-store';

/** Lazily built once per process. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/**
 * The live map (docs/decisions/060): `/map` for anyone, showing what the anonymous preview allows
 * (positions at least the preview delay old, labelled delayed), and `/console/map` for the signed-in
 * operator with live positions (the console cookie is scoped to /console). Data comes from page JSON
 * routes built by the map service; MapLibre and the Natural Earth basemap are served by Bosun.
 */
const COAST_CACHE_ENTRIES = 64;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export function mapPages(deps: MapDeps): PageDefinition[] {
  const assets = new Map<string, () => Encoded>();
  for (const name of Object.keys(MAPLIBRE_FILES))
    assets.set(
      name,
      once(() => encode(readFileSync(join(MAPLIBRE_DIST, name)))),
    );
  assets.set(
    'map.js',
    once(() => encode(Buffer.from(MAP_CLIENT_JS))),
  );
  assets.set(
    'map.css',
    once(() => encode(Buffer.from(MAP_CSS))),
  );
  const types: Record<string, string> = { ...MAPLIBRE_FILES, 'map.js': 'text/javascript; charset=utf-8', 'map.css': 'text/css; charset=utf-8' };
  const places = () => encodeLayer(deps.map.places());
  const morePorts = () => encodeLayer(deps.map.morePorts());
  const encodedLayers = new WeakMap<FeatureCollection, Encoded>();
  const encodeLayer = (fc: FeatureCollection) => {
    let e = encodedLayers.get(fc);
    if (!e) encodedLayers.set(fc, (e = encode(Buffer.from(JSON.stringify(fc)))));
    return e;
  };
  const geojson = 'application/geo+json; charset=utf-8';
  // detailed coast answers by box: the map asks on a grid, so a small cache serves neighbouring views
  const coastCache = new Map<string, Encoded>();
  const coast = (box: Box) => {
    const key = [box.minLon, box.minLat, box.maxLon, box.maxLat].join(',');
    let e = coastCache.get(key);
    if (!e) {
      e = encode(Buffer.from(JSON.stringify(coastDetail(box))));
      if (coastCache.size >= COAST_CACHE_ENTRIES) coastCache.delete(coastCache.keys().next().value!);
      coastCache.set(key, e);
    }
    return e;
  };

  const operator = async (req: PageRequest, renew = true) => deps.resumeSession(req.cookies.get(deps.sessionCookie), { renew });
  const badSince: PageResponse = {
    status: 400,
    body: 'since must be the horizon of an earlier answer (an ISO 8601 UTC time such as 2026-11-27T10:00:00.000Z); without since the whole layer is sent.',
    contentType: 'text/plain; charset=utf-8',
  };
  const unauthorized: PageResponse = {
    status: 401,
    // a page answer, not an API error envelope: the map script shows it as a status line
    body: 'Sign in to the operator console (/console) for live positions; /map/data/vessels.geojson serves delayed ones.',
    contentType: 'text/plain; charset=utf-8',
    headers: { 'cache-control': DATA_CACHE },
  };

  const dataPages = (prefix: string, viewer: MapViewer): PageDefinition[] => [
    {
      method: 'GET',
      path: `${prefix}/data/vessels.geojson`,
      async handler(req) {
        if (viewer === 'operator' && !(await operator(req, false))) return unauthorized;
        const since = req.query.get('since');
        if (since === null) return send(req, encodeLayer(await deps.map.vessels(viewer)), geojson, DATA_CACHE);
        const at = ISO_TIME.test(since) ? Date.parse(since) : NaN;
        if (Number.isNaN(at)) return badSince;
        return send(req, encode(Buffer.from(JSON.stringify(await deps.map.vesselsSince(viewer, at)))), geojson, DATA_CACHE);
      },
    },
    {
      method: 'GET',
      path: `${prefix}/data/events.geojson`,
      async handler(req) {
        if (viewer === 'operator' && !(await operator(req, false))) return unauthorized;
        return send(req, encodeLayer(await deps.map.events(viewer)), geojson, DATA_CACHE);
      },
    },
  ];

  return [
    {
      method: 'GET',
      path: '/assets/map/:file',
      async handler(req) {
        const asset = assets.get(req.params.file ?? '');
        if (!asset) return { status: 404, body: 'not found', contentType: 'text/plain; charset=utf-8' };
        return send(req, asset(), types[req.params.file!]!, ASSET_CACHE);
      },
    },
    {
      method: 'GET',
      path: '/map/data/basemap.json',
      handler: async (req) => send(req, deps.map.basemap(), 'application/json; charset=utf-8', ASSET_CACHE),
    },
    {
      method: 'GET',
      path: '/map/data/coast.geojson',
      handler: async (req) => {
        const parts = (req.query.get('bbox') ?? '').split(',');
        const box =
          parts.length === 4 && parts.every((p) => /^-?\d+(\.\d+)?$/.test(p)) ? { minLon: Number(parts[0]), minLat: Number(parts[1]), maxLon: Number(parts[2]), maxLat: Number(parts[3]) } : null;
        const problem = box ? coastBoxProblem(box) : 'bbox must be four decimal numbers: minLon,minLat,maxLon,maxLat';
        if (problem || !box) return { status: 400, body: problem ?? '', contentType: 'text/plain; charset=utf-8' };
        return send(req, coast(box), geojson, ASSET_CACHE);
      },
    },
    {
      method: 'GET',
      path: '/map/data/places.geojson',
      handler: async (req) => send(req, places(), geojson, 'public, max-age=300'),
    },
    {
      method: 'GET',
      path: '/map/data/more-ports.geojson',
      handler: async (req) => send(req, morePorts(), geojson, 'public, max-age=300'),
    },
    ...dataPages('/map', 'anonymous'),
    ...dataPages('/console/map', 'operator'),
    {
      method: 'GET',
      path: '/map',
      handler: async () => ({ html: mapPage('anonymous', null) }),
    },
    {
      method: 'GET',
      path: '/console/map',
      async handler(req) {
        const session = await operator(req);
        if (!session) return { redirect: '/console' };
        return { html: mapPage('operator', session) };
      },
    },
  ];
}

const HOURS = DELAY_SECONDS / 3600;

function mapPage(viewer: MapViewer, session: ConsoleSession | null): string {
  const prefix = viewer === 'operator' ? '/console/map' : '/map';
  const main = html`<div class="map-layout">
    <div
      id="map"
      role="region"
      aria-label="Map of vessel positions"
      data-viewer="${viewer}"
      data-vessels="${prefix}/data/vessels.geojson"
      data-events="${prefix}/data/events.geojson"
      data-places="/map/data/places.geojson"
      data-more-ports="/map/data/more-ports.geojson"
      data-basemap="/map/data/basemap.json"
      data-coast="/map/data/coast.geojson"
      data-coast-zoom="${COAST_DETAIL.minZoom}"
      data-coast-grid="${COAST_DETAIL.gridDeg}"
      data-coast-span="${COAST_DETAIL.maxSpanDeg}"
      data-coast-attribution="${COAST_DETAIL_ATTRIBUTION}"
      data-poll="${MAP_POLL_SECONDS}"
    ></div>
    <div class="map-bar">
      <h1>${viewer === 'operator' ? 'Live map (operator)' : 'Live map'}</h1>
      <form id="map-search" role="search">
        <label class="sr-only" for="map-q">Find a vessel (name, IMO, MMSI) or a port</label>
        <input id="map-q" name="q" type="search" placeholder="Vessel, IMO, MMSI or port" />
        <button type="submit">Find</button>
      </form>
      <details id="map-info">
        <summary>About this map</summary>
        ${
          viewer === 'operator'
            ? html`<p>Live vessel positions, as the operator sees them. The public map at <a href="/map">/map</a> shows positions at least ${DELAY_SECONDS.toLocaleString('en')} s old.</p>`
            : html`<p>
                Vessel positions from AIS as the anonymous preview allows: each vessel at its newest position at least ${DELAY_SECONDS.toLocaleString('en')} s (${HOURS} hours) old, labelled
                <strong>delayed</strong>. Agents read the same data through the <a href="/docs">API</a> (e.g. <code>/v1/bootstrap/vessels/last_position</code>); live positions need the entitlement
                <code>vessels:live</code>. The operator sees live positions in the <a href="/console/map">console map</a>.
              </p>`
        }
        <p>
          Vessels are coloured by type and point along their heading (a dot when neither heading nor course is known); vessels of the simulated demo fleet carry a thin dark ring and the label
          <strong>simulated</strong>. The map refreshes every ${MAP_POLL_SECONDS} seconds without reloading the page.
        </p>
        <noscript>
          <p class="notice">
            The map needs JavaScript. The same data as GeoJSON: <a href="${prefix}/data/vessels.geojson">vessels</a>, <a href="/map/data/places.geojson">chokepoints and World Port Index ports</a>,
            <a href="/map/data/more-ports.geojson">UN/LOCODE-only ports</a>, <a href="${prefix}/data/events.geojson">STS encounters and congestion</a>.
          </p>
        </noscript>
      </details>
    </div>
    <aside class="map-side" aria-label="Map details">
      <p id="map-status" role="status">The map loads with JavaScript.</p>
      <ul id="map-results" aria-label="Search results"></ul>
      <section id="map-card" aria-live="polite" aria-labelledby="map-card-title">
        <h2 id="map-card-title">Details</h2>
        <p>Select a vessel, port, chokepoint or event on the map, or find one by name.</p>
      </section>
      <fieldset>
        <legend>Layers</legend>
        ${[
          ['vessels', 'Vessels'],
          ['ports', 'Ports'],
          ['chokepoints', 'Chokepoints'],
          ['sts', 'STS encounters'],
          ['congestion', 'Congestion'],
        ].map(([key, label]) => html`<label class="check"><input type="checkbox" name="layer" value="${key}" checked /> ${label}</label>`)}
      </fieldset>
      <h2>Legend</h2>
      <ul class="legend">
        ${LEGEND.map((entry) => html`<li data-legend="${entry.layer}"><span class="swatch ${entry.shape}" style="background:${entry.colour};border-color:${entry.colour}"></span>${entry.label}</li>`)}
      </ul>
    </aside>
  </div>`;
  return layout({
    title: viewer === 'operator' ? 'Live map (operator)' : 'Live map',
    console: session ? { csrf: session.csrf } : null,
    styles: ['/assets/map/maplibre-gl.css', '/assets/map/map.css'],
    scripts: ['/assets/map/map.js'],
    pageClass: 'map-page',
    main,
  });
}
