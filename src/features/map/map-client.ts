/**
 * Colours of the vessel symbols by ship category (shipCategory), 'unknown' when the type is not
 * reported: Paul Tol's colour-blind-safe "muted" scheme and neutral greys (docs/decisions/096).
 */
export const CATEGORY_COLOURS: Record<string, string> = {
  cargo: '#117733',
  tanker: '#cc6677',
  passenger: '#332288',
  fishing: '#ddcc77',
  tug: '#882255',
  pleasure: '#aa4499',
  high_speed: '#44aa99',
  sailing: '#88ccee',
  military: '#3d3d3d',
  other: '#999933',
  unknown: '#a9a9a9',
};

/** Colours of the other layers: none shared with a vessel type or with each other (Okabe-Ito orange, vermillion, yellow; slate). */
export const LAYER_COLOURS = {
  port: '#1f3b57',
  morePort: '#6b8299',
  chokepoint: '#e69f00',
  sts: '#f0e442',
  congestion: '#d55e00',
  /** The simulated mark: a thin dark dashed-looking halo that leaves the type colour readable. */
  simulated: '#101010',
} as const;

/** The legend: one entry per layer of the map, each vessel type included. */
export const LEGEND: ReadonlyArray<{ layer: string; label: string; colour: string; shape: 'dot' | 'ring' | 'square' }> = [
  ...Object.entries(CATEGORY_COLOURS).map(([category, colour]) => ({ layer: `vessel-${category}`, label: `${category.replace('_', ' ')} vessel`, colour, shape: 'dot' as const })),
  { layer: 'simulated', label: 'simulated (demo fleet): dark ring', colour: LAYER_COLOURS.simulated, shape: 'ring' },
  { layer: 'ports', label: 'port (World Port Index)', colour: LAYER_COLOURS.port, shape: 'square' },
  { layer: 'more-ports', label: 'port (UN/LOCODE only, zoom in)', colour: LAYER_COLOURS.morePort, shape: 'square' },
  { layer: 'chokepoints', label: 'chokepoint gate', colour: LAYER_COLOURS.chokepoint, shape: 'ring' },
  { layer: 'sts', label: 'ship-to-ship encounter (7 days)', colour: LAYER_COLOURS.sts, shape: 'dot' },
  { layer: 'congestion', label: 'congestion at a port', colour: LAYER_COLOURS.congestion, shape: 'ring' },
];

export const MAP_CSS = `body.map-page{display:flex;flex-direction:column;height:100vh;height:100dvh}body.map-page main{flex:1;min-height:0;position:relative;max-width:none;margin:0;padding:0}body.map-page footer{display:none}
body.map-page header nav{padding:.25rem .75rem}body.map-page header ul{gap:.2rem .9rem;font-size:.95rem}
.map-layout{position:absolute;inset:0}
.map-labels{position:absolute;inset:0;pointer-events:none;overflow:hidden;z-index:1}.vessel-label{position:absolute;left:0;top:0;font:600 11px/1.2 system-ui,sans-serif;color:#0b1c2c;white-space:nowrap;text-shadow:0 0 2px #fff,0 0 2px #fff,0 0 3px #fff}
#map{position:absolute;inset:0;background:#b8d4e8}
.map-bar{position:absolute;top:.5rem;left:.5rem;z-index:2;display:flex;gap:.4rem;align-items:flex-start;max-width:calc(100% - 4rem);flex-wrap:wrap}
.map-bar h1{font-size:1rem;margin:0;padding:.3rem .6rem;background:#fff;border:1px solid var(--line);border-radius:.3rem}
.map-bar details{background:#fff;border:1px solid var(--line);border-radius:.3rem;padding:.3rem .6rem;max-width:28rem}.map-bar summary{cursor:pointer}
.map-bar form{display:flex;gap:.3rem;background:#fff;border:1px solid var(--line);border-radius:.3rem;padding:.2rem}.map-bar input{width:12rem;max-width:40vw}
.map-bar label{margin:0}
.map-side{position:absolute;z-index:2;right:3.2rem;top:.5rem;width:20rem;max-height:calc(100% - 1rem);overflow:auto;background:#fff;border:1px solid var(--line);border-radius:.3rem;padding:.5rem .75rem}
.map-side fieldset{border:1px solid var(--line);margin:0 0 .6rem;padding:.2rem .5rem}.map-side label.check{display:inline-block;margin:.1rem .6rem .1rem 0}
.map-side dl{display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem;margin:.5rem 0}.map-side dt{color:var(--muted)}.map-side dd{margin:0}.map-side h2{font-size:1.1rem;margin:.3rem 0}
#map-results{list-style:none;padding:0;margin:.3rem 0}#map-results button{width:100%;text-align:left}
.map-tip{position:absolute;z-index:3;pointer-events:none;background:#fff;border:1px solid var(--line);border-radius:.25rem;padding:.15rem .4rem;font-size:.85rem;white-space:nowrap}
.badge{display:inline-block;border-radius:.2rem;padding:0 .35rem;margin-right:.3rem;font-size:.85rem;font-weight:600}
.badge.delayed{background:#fff1d6;color:#6b3a00;border:1px solid #8a4b00}.badge.simulated{background:#eeeeee;color:#101010;border:1px dashed #101010}.badge.live{background:#e2f3e4;color:#1b5e20;border:1px solid #117733}
.legend{list-style:none;padding:0;margin:0;columns:2;font-size:.85rem}.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:50%;margin-right:.4rem;vertical-align:-.1rem;border:1px solid #555}
.swatch.ring{background:transparent!important;border:2px solid}.swatch.square{border-radius:.1rem}
@media (max-width:48rem){.map-side{left:0;right:0;top:auto;bottom:0;width:auto;max-height:42%;border-radius:.6rem .6rem 0 0;box-shadow:0 -2px 8px rgba(0,0,0,.2)}
.map-side .legend{columns:2}.map-bar input{width:9rem}}
`;

/**
 * The map page's script (served as /assets/map/map.js, a classic script that imports the MapLibre
 * module): basemap and layers, vessel symbols drawn on canvases, the details card, polling.
 * `window.bosunMap` is the MapLibre map (queryRenderedFeatures, project), `window.bosunMapState`
 * what was loaded last.
 */
export const MAP_CLIENT_JS = `(function () {
  'use strict';
  var COLOURS = ${JSON.stringify(CATEGORY_COLOURS)};
  var LAYER = ${JSON.stringify(LAYER_COLOURS)};
  /** "just now", "12 min ago", "3 h ago", "2 days ago" (src/features/web/human-time.ts, in the browser). */
  function ago(seconds) {
    var s = Math.max(0, Math.round(seconds));
    if (s < 45) return 'just now';
    if (s < 3600) return Math.max(1, Math.round(s / 60)) + ' min ago';
    if (s < 48 * 3600) return Math.round(s / 3600) + ' h ago';
    return Math.round(s / 86400) + ' days ago';
  }
  window.bosunAgo = ago;
  var el = document.getElementById('map');
  var statusEl = document.getElementById('map-status');
  var card = document.getElementById('map-card');
  if (!el) return;
  var cfg = el.dataset;
  var viewer = cfg.viewer;
  var state = { coast: null, vessels: 0, delayed: 0, simulated: 0, generatedAt: null, loads: 0, error: null };
  window.bosunMapState = state;

  function say(text) { statusEl.textContent = text; }
  function getJson(url) {
    return fetch(url, { credentials: 'same-origin', headers: { accept: 'application/geo+json, application/json' } }).then(function (r) {
      if (!r.ok) throw new Error(url + ' answered ' + r.status);
      return r.json();
    });
  }
  function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  function row(label, value) { return value == null || value === '' ? '' : '<dt>' + esc(label) + '</dt><dd>' + esc(value) + '</dd>'; }

  /** An arrow pointing north (rotated by the layer) or a dot, in one colour, as image data. */
  function symbol(colour, arrow) {
    var size = 24, c = document.createElement('canvas');
    c.width = size; c.height = size;
    var g = c.getContext('2d');
    g.fillStyle = colour; g.strokeStyle = '#ffffff'; g.lineWidth = 1.5;
    g.beginPath();
    if (arrow) { g.moveTo(12, 2); g.lineTo(19, 21); g.lineTo(12, 17); g.lineTo(5, 21); g.closePath(); }
    else g.arc(12, 12, 5, 0, Math.PI * 2);
    g.fill(); g.stroke();
    return g.getImageData(0, 0, size, size);
  }

  function vesselCard(p) {
    var badges = (p.delayed ? '<span class="badge delayed">delayed</span>' : '<span class="badge live">live</span>') + (p.simulated ? '<span class="badge simulated">simulated</span>' : '');
    return '<h2 id="map-card-title">' + esc(p.name || 'Unnamed vessel') + '</h2><p>' + badges + '</p><dl>' +
      row('MMSI', p.mmsi) + row('IMO', p.imo) + row('Type', String(p.category).replace('_', ' ')) +
      row('Speed', p.sog == null ? null : p.sog + ' kn') + row('Course', p.cog == null ? null : p.cog + '°') + row('Heading', p.heading == null ? null : p.heading + '°') +
      row('Position time', String(p.observed_at).replace('T', ' ').replace(/:\\d\\d(\\.\\d+)?Z$/, ' UTC')) + row('Age', ago(p.age_seconds)) + row('Vessel id', p.vsl_id) + '</dl>' +
      (p.delayed ? '<p>Delayed: the newest position at least 50,400 s old, as the anonymous preview allows.</p>' : '') +
      (p.simulated ? '<p>Simulated: from the demo fleet, not a real vessel.</p>' : '');
  }
  function placeCard(p) {
    var sim = p.simulated ? '<p><span class="badge simulated">simulated</span></p>' : '';
    if (p.layer === 'port') return '<h2 id="map-card-title">' + esc(p.name) + '</h2><p>Port</p><dl>' + row('LOCODE', p.locode) + row('Country', p.country) + row('Size', p.size) + row('Port id', p.port_id) + '</dl>';
    if (p.layer === 'chokepoint') return '<h2 id="map-card-title">' + esc(p.name) + '</h2><p>Chokepoint gate</p><dl>' + row('Key', p.key) + row('Gate radius', p.radius_km + ' km') + '</dl>';
    if (p.layer === 'sts') return '<h2 id="map-card-title">STS encounter</h2>' + sim + '<dl>' + row('Vessels', p.vessels) + row('Start', p.start) + row('End', p.end) + row('Duration', p.duration_minutes + ' min') + '</dl>';
    if (p.layer === 'congestion') return '<h2 id="map-card-title">Congestion: ' + esc(p.name) + '</h2>' + sim + '<dl>' + row('Waiting at anchor', p.waiting) + row('At berth', p.at_berth) + row('Arrivals (24 h)', p.arrivals_24h) + row('As of', p.at) + '</dl>';
    return '';
  }

  function describe() {
    var when = state.generatedAt ? ' as of ' + state.generatedAt.replace('T', ' ').replace(/\\.\\d+Z$/, ' UTC') : '';
    var what = viewer === 'operator' ? ' live positions' : ' positions, delayed by at least 50,400 s (14 hours)';
    say(state.vessels.toLocaleString('en') + ' vessels:' + what + when + (state.simulated ? '; ' + state.simulated.toLocaleString('en') + ' simulated (demo fleet)' : '') + '.');
  }

  import('/assets/map/maplibre-gl.mjs').then(function (maplibregl) {
    say('Loading the basemap…');
    return getJson(cfg.basemap).then(function (basemap) { start(maplibregl, basemap); });
  }).catch(function (err) { state.error = String(err); say('The map could not be loaded (' + err.message + '). The data is available as GeoJSON: ' + cfg.vessels); });

  function start(maplibregl, basemap) {
    var map = new maplibregl.Map({
      container: el,
      center: [20, 25],
      zoom: 1.4,
      maxZoom: 14,
      attributionControl: { compact: false, customAttribution: [basemap.attribution, cfg.coastAttribution + ' from zoom ' + cfg.coastZoom] },
      style: {
        version: 8,
        sources: {
          land: { type: 'geojson', data: basemap.land },
          borders: { type: 'geojson', data: basemap.borders },
          coast: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          places: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          'more-ports': { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          events: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          vessels: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } }
        },
        layers: [
          { id: 'sea', type: 'background', paint: { 'background-color': '#b8d4e8' } },
          { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f2efe6', 'fill-outline-color': '#9aa5ad' } },
          { id: 'coast', type: 'fill', source: 'coast', layout: { visibility: 'none' }, paint: { 'fill-color': '#f2efe6', 'fill-outline-color': '#9aa5ad' } },
          { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': '#a39e93', 'line-width': 0.6 } },
          { id: 'chokepoints', type: 'circle', source: 'places', filter: ['==', ['get', 'layer'], 'chokepoint'], paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 7, 6, 20], 'circle-color': 'rgba(230,159,0,0.10)', 'circle-stroke-color': LAYER.chokepoint, 'circle-stroke-width': 2 } },
          { id: 'ports', type: 'circle', source: 'places', filter: ['==', ['get', 'layer'], 'port'], paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 2, 8, 4], 'circle-color': LAYER.port, 'circle-opacity': 0.8 } },
          { id: 'more-ports', type: 'circle', source: 'more-ports', minzoom: 5, paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 5, 1.5, 10, 4], 'circle-color': LAYER.morePort, 'circle-opacity': 0.8 } },
          { id: 'congestion', type: 'circle', source: 'events', filter: ['==', ['get', 'layer'], 'congestion'], paint: { 'circle-radius': ['+', 6, ['*', 1.5, ['sqrt', ['+', ['get', 'waiting'], ['get', 'at_berth']]]]], 'circle-color': 'rgba(213,94,0,0.18)', 'circle-stroke-color': LAYER.congestion, 'circle-stroke-width': 1.5 } },
          { id: 'sts', type: 'circle', source: 'events', filter: ['==', ['get', 'layer'], 'sts'], paint: { 'circle-radius': 5, 'circle-color': LAYER.sts, 'circle-stroke-color': '#101010', 'circle-stroke-width': 1.5 } },
          { id: 'vessels-simulated', type: 'circle', source: 'vessels', filter: ['==', ['get', 'simulated'], true], paint: { 'circle-radius': 10, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': LAYER.simulated, 'circle-stroke-width': 0.8, 'circle-stroke-opacity': 0.55 } },
          { id: 'vessels', type: 'symbol', source: 'vessels', layout: {
            'icon-image': ['concat', ['case', ['<', ['get', 'bearing'], 0], 'dot-', 'arrow-'], ['get', 'category']],
            'icon-rotate': ['max', ['get', 'bearing'], 0],
            'icon-rotation-alignment': 'map',
            'icon-size': ['interpolate', ['linear'], ['zoom'], 1, 0.8, 8, 1.2],
            'icon-allow-overlap': true,
            'icon-ignore-placement': true
          } }
        ]
      }
    });
    window.bosunMap = map;
    var lastVessels = { features: [] }, lastPlaces = { features: [] };

    // Vessel names at close zoom, drawn as page text over the canvas (no glyph server: the map itself draws no text).
    var LABEL_ZOOM = 9, LABEL_MAX = 150, labelled = [];
    var labelLayer = document.createElement('div');
    labelLayer.className = 'map-labels';
    labelLayer.setAttribute('aria-hidden', 'true');
    el.appendChild(labelLayer);
    function placeLabels() {
      labelLayer.textContent = '';
      labelled.forEach(function (f) {
        var at = map.project(f.geometry.coordinates);
        var span = document.createElement('span');
        span.className = 'vessel-label';
        span.textContent = f.properties.name;
        span.style.transform = 'translate(' + Math.round(at.x + 9) + 'px,' + Math.round(at.y - 8) + 'px)';
        labelLayer.appendChild(span);
      });
    }
    function pickLabels() {
      var shown = map.getZoom() >= LABEL_ZOOM && map.getLayoutProperty('vessels', 'visibility') !== 'none';
      labelled = shown ? map.queryRenderedFeatures({ layers: ['vessels'] }).filter(function (f) { return f.properties.name; }).slice(0, LABEL_MAX) : [];
      placeLabels();
    }
    // From harbour zoom the 1:50m land gives way to the 1:10m coast of the view (asked for on a grid, so neighbouring views share answers).
    var coastKey = null, COAST_ZOOM = Number(cfg.coastZoom), COAST_GRID = Number(cfg.coastGrid), COAST_SPAN = Number(cfg.coastSpan);
    function showCoast(detailed) {
      map.setLayoutProperty('coast', 'visibility', detailed ? 'visible' : 'none');
      map.setLayoutProperty('land', 'visibility', detailed ? 'none' : 'visible');
    }
    function loadCoast() {
      var b = map.getBounds(), g = COAST_GRID;
      var box = [Math.max(-180, Math.floor(b.getWest() / g) * g), Math.max(-90, Math.floor(b.getSouth() / g) * g), Math.min(180, Math.ceil(b.getEast() / g) * g), Math.min(90, Math.ceil(b.getNorth() / g) * g)];
      if (map.getZoom() < COAST_ZOOM || box[2] - box[0] > COAST_SPAN || box[3] - box[1] > COAST_SPAN) { coastKey = null; showCoast(false); return; }
      var key = box.join(',');
      if (key === coastKey) return;
      coastKey = key;
      // the 1:50m land until the new box arrives: an old box would leave the rest of the view without land
      showCoast(false);
      getJson(cfg.coast + '?bbox=' + key).then(function (fc) {
        if (coastKey !== key) return;
        map.getSource('coast').setData(fc);
        showCoast(true);
        state.coast = key;
      }).catch(function () { coastKey = null; showCoast(false); });
    }
    map.on('moveend', loadCoast);
    map.on('move', placeLabels);
    map.on('moveend', pickLabels);
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.on('styleimagemissing', function (e) {
      var parts = e.id.split('-'), colour = COLOURS[parts.slice(1).join('-')];
      if (colour && !map.hasImage(e.id)) map.addImage(e.id, symbol(colour, parts[0] === 'arrow'), { pixelRatio: 2 });
    });

    // an event dot is small and drawn over vessels: it wins a click over a vessel under it
    var clickable = ['sts', 'vessels', 'congestion', 'chokepoints', 'ports', 'more-ports'];
    function show(f) {
      card.innerHTML = f.layer.id === 'vessels' ? vesselCard(f.properties) : placeCard(f.properties);
      card.dataset.selected = f.layer.id === 'vessels' ? f.properties.vsl_id : f.layer.id;
    }
    var tip = document.createElement('div');
    tip.className = 'map-tip';
    tip.hidden = true;
    el.appendChild(tip);
    function tipText(f) {
      var p = f.properties;
      if (f.layer.id === 'vessels') return (p.name || 'Unnamed vessel') + ' · ' + String(p.category).replace('_', ' ') + ' · ' + ago(p.age_seconds);
      if (f.layer.id === 'sts') return 'STS encounter · ' + p.duration_minutes + ' min';
      if (f.layer.id === 'congestion') return 'Congestion: ' + p.name;
      return p.name || f.layer.id;
    }
    map.on('mousemove', function (e) {
      var hits = map.queryRenderedFeatures([[e.point.x - 4, e.point.y - 4], [e.point.x + 4, e.point.y + 4]], { layers: clickable.filter(function (id) { return map.getLayer(id) && map.getLayoutProperty(id, 'visibility') !== 'none'; }) });
      if (!hits.length) { tip.hidden = true; return; }
      hits.sort(function (a, b) { return clickable.indexOf(a.layer.id) - clickable.indexOf(b.layer.id); });
      tip.textContent = tipText(hits[0]);
      tip.style.left = (e.point.x + 12) + 'px';
      tip.style.top = (e.point.y + 12) + 'px';
      tip.hidden = false;
    });
    map.on('mouseout', function () { tip.hidden = true; });

    // search: vessels by name, IMO or MMSI, ports and chokepoints by name or LOCODE, among what is loaded
    var searchForm = document.getElementById('map-search');
    var results = document.getElementById('map-results');
    function searchables() {
      var out = [];
      (lastVessels.features || []).forEach(function (f) { out.push({ kind: 'vessels', f: f, text: [f.properties.name, f.properties.imo, f.properties.mmsi, f.properties.vsl_id].join(' ').toLowerCase(), label: (f.properties.name || 'Unnamed vessel') + ' (vessel, MMSI ' + f.properties.mmsi + ')' }); });
      (lastPlaces.features || []).forEach(function (f) { out.push({ kind: f.properties.layer === 'port' ? 'ports' : 'chokepoints', f: f, text: [f.properties.name, f.properties.locode, f.properties.key].join(' ').toLowerCase(), label: f.properties.name + ' (' + f.properties.layer + ')' }); });
      return out;
    }
    function go(hit) {
      var c = hit.f.geometry.coordinates;
      map.flyTo({ center: c, zoom: Math.max(map.getZoom(), hit.kind === 'vessels' ? 9 : 7) });
      show({ layer: { id: hit.kind }, properties: hit.f.properties });
    }
    if (searchForm) searchForm.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var q = String(new FormData(searchForm).get('q') || '').trim().toLowerCase();
      results.innerHTML = '';
      if (!q) return;
      var hits = searchables().filter(function (h) { return h.text.indexOf(q) >= 0; }).slice(0, 8);
      if (!hits.length) { results.innerHTML = '<li>Nothing found for “' + esc(q) + '”.</li>'; return; }
      hits.forEach(function (h) {
        var li = document.createElement('li'), b = document.createElement('button');
        b.type = 'button'; b.textContent = h.label; b.addEventListener('click', function () { go(h); });
        li.appendChild(b); results.appendChild(li);
      });
      go(hits[0]);
    });
    map.on('click', function (e) {
      var box = [[e.point.x - 4, e.point.y - 4], [e.point.x + 4, e.point.y + 4]];
      var hits = map.queryRenderedFeatures(box, { layers: clickable.filter(function (id) { return map.getLayer(id) && map.getLayoutProperty(id, 'visibility') !== 'none'; }) });
      if (!hits.length) return;
      var order = function (f) { return clickable.indexOf(f.layer.id); };
      hits.sort(function (a, b) { return order(a) - order(b); });
      show(hits[0]);
    });
    clickable.forEach(function (id) {
      map.on('mouseenter', id, function () { map.getCanvas().style.cursor = 'pointer'; });
      map.on('mouseleave', id, function () { map.getCanvas().style.cursor = ''; });
    });
    document.querySelectorAll('input[name="layer"]').forEach(function (box) {
      box.addEventListener('change', function () {
        var ids = box.value === 'vessels' ? ['vessels', 'vessels-simulated'] : box.value === 'ports' ? ['ports', 'more-ports'] : [box.value];
        ids.forEach(function (id) { map.setLayoutProperty(id, 'visibility', box.checked ? 'visible' : 'none'); });
        if (box.value === 'vessels') map.once('idle', pickLabels);
      });
    });

    // After the first load only the vessels that moved since the last answer's horizon are sent; the set is
    // rebuilt from a whole layer every FULL_EVERY polls (corrected names) and whenever the merged count drifts.
    var byId = {}, since = null, polls = 0, FULL_EVERY = 20;
    function mergeVessels(fc) {
      if (!fc.changes_since) byId = {};
      fc.features.forEach(function (f) { byId[f.properties.vsl_id] = f; });
      var generated = Date.parse(fc.generated_at);
      var all = Object.keys(byId).map(function (id) {
        var f = byId[id];
        f.properties.age_seconds = Math.max(0, Math.round((generated - Date.parse(f.properties.observed_at)) / 1000));
        return f;
      });
      var merged = { type: 'FeatureCollection', features: all, generated_at: fc.generated_at, horizon: fc.horizon };
      since = fc.changes_since && all.length !== fc.total ? null : fc.horizon;
      return merged;
    }
    function loadVessels() {
      var full = since === null || polls++ % FULL_EVERY === 0;
      var url = full ? cfg.vessels : cfg.vessels + '?since=' + encodeURIComponent(since);
      return getJson(url).then(function (answer) {
        var fc = mergeVessels(answer);
        lastVessels = fc;
        map.getSource('vessels').setData(fc);
        map.once('idle', pickLabels);
        state.vessels = fc.features.length;
        state.delayed = fc.features.filter(function (f) { return f.properties.delayed; }).length;
        state.simulated = fc.features.filter(function (f) { return f.properties.simulated; }).length;
        state.generatedAt = fc.generated_at;
        state.loads++;
        state.error = null;
        describe();
      });
    }
    function loadEvents() { return getJson(cfg.events).then(function (fc) { map.getSource('events').setData(fc); }); }
    function refresh() {
      return Promise.all([loadVessels(), loadEvents()]).catch(function (err) { state.error = String(err); say('Could not refresh the map (' + err.message + '); retrying in ' + cfg.poll + ' s.'); });
    }
    map.on('load', function () {
      Object.keys(COLOURS).forEach(function (k) {
        if (!map.hasImage('arrow-' + k)) map.addImage('arrow-' + k, symbol(COLOURS[k], true), { pixelRatio: 2 });
        if (!map.hasImage('dot-' + k)) map.addImage('dot-' + k, symbol(COLOURS[k], false), { pixelRatio: 2 });
      });
      getJson(cfg.places).then(function (fc) { lastPlaces = fc; map.getSource('places').setData(fc); }).catch(function () {});
      refresh();
      var morePorts = false;
      map.on('zoomend', function () {
        if (morePorts || map.getZoom() < 5) return;
        morePorts = true;
        getJson(cfg.morePorts).then(function (fc) { map.getSource('more-ports').setData(fc); }).catch(function () { morePorts = false; });
      });
      setInterval(refresh, Number(cfg.poll) * 1000);
    });
  }
})();
`;
