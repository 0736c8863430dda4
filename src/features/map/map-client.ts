/** Colours of the vessel symbols by ship category (shipCategory), 'unknown' when the type is not reported. */
export const CATEGORY_COLOURS: Record<string, string> = {
  cargo: '#2e7d32',
  tanker: '#c62828',
  passenger: '#1565c0',
  fishing: '#ef6c00',
  tug: '#6d4c41',
  pleasure: '#ad1457',
  high_speed: '#00838f',
  sailing: '#6a1b9a',
  military: '#37474f',
  other: '#757575',
  unknown: '#9e9d24',
};

export const MAP_CSS = `.map-layout{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:1rem;align-items:start}
#map{height:70vh;min-height:24rem;border:1px solid var(--line);border-radius:.3rem;background:#b8d4e8}
.map-side fieldset{border:1px solid var(--line);margin:0 0 1rem}.map-side label.check{display:block;margin:.2rem 0}
.map-side dl{display:grid;grid-template-columns:auto 1fr;gap:.1rem .6rem;margin:.5rem 0}.map-side dt{color:var(--muted)}.map-side dd{margin:0}
.badge{display:inline-block;border-radius:.2rem;padding:0 .35rem;margin-right:.3rem;font-size:.85rem;font-weight:600}
.badge.delayed{background:#fff1d6;color:#6b3a00;border:1px solid #8a4b00}.badge.simulated{background:#ece4f6;color:#4a1872;border:1px solid #6a1b9a}.badge.live{background:#e2f3e4;color:#1b5e20;border:1px solid #2e7d32}
.legend{list-style:none;padding:0;margin:0;columns:2}.swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:50%;margin-right:.4rem;vertical-align:-.1rem}
@media (max-width:48rem){.map-layout{grid-template-columns:1fr}}
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
  var el = document.getElementById('map');
  var statusEl = document.getElementById('map-status');
  var card = document.getElementById('map-card');
  if (!el) return;
  var cfg = el.dataset;
  var viewer = cfg.viewer;
  var state = { vessels: 0, delayed: 0, simulated: 0, generatedAt: null, loads: 0, error: null };
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
      row('Position time', p.observed_at) + row('Age', Math.round(p.age_seconds / 60) + ' min') + row('Vessel id', p.vsl_id) + '</dl>' +
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
      attributionControl: { compact: false, customAttribution: basemap.attribution },
      style: {
        version: 8,
        sources: {
          land: { type: 'geojson', data: basemap.land },
          borders: { type: 'geojson', data: basemap.borders },
          places: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          'more-ports': { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          events: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
          vessels: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } }
        },
        layers: [
          { id: 'sea', type: 'background', paint: { 'background-color': '#b8d4e8' } },
          { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f2efe6', 'fill-outline-color': '#9aa5ad' } },
          { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': '#a39e93', 'line-width': 0.6 } },
          { id: 'chokepoints', type: 'circle', source: 'places', filter: ['==', ['get', 'layer'], 'chokepoint'], paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 7, 6, 20], 'circle-color': 'rgba(106,27,154,0.12)', 'circle-stroke-color': '#6a1b9a', 'circle-stroke-width': 1.5 } },
          { id: 'ports', type: 'circle', source: 'places', filter: ['==', ['get', 'layer'], 'port'], paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 1, 2, 8, 4], 'circle-color': '#455a64', 'circle-opacity': 0.7 } },
          { id: 'more-ports', type: 'circle', source: 'more-ports', minzoom: 5, paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 5, 1.5, 10, 4], 'circle-color': '#78909c', 'circle-opacity': 0.7 } },
          { id: 'congestion', type: 'circle', source: 'events', filter: ['==', ['get', 'layer'], 'congestion'], paint: { 'circle-radius': ['+', 6, ['*', 1.5, ['sqrt', ['+', ['get', 'waiting'], ['get', 'at_berth']]]]], 'circle-color': 'rgba(239,108,0,0.25)', 'circle-stroke-color': '#ef6c00', 'circle-stroke-width': 1 } },
          { id: 'sts', type: 'circle', source: 'events', filter: ['==', ['get', 'layer'], 'sts'], paint: { 'circle-radius': 5, 'circle-color': '#fdd835', 'circle-stroke-color': '#5d4037', 'circle-stroke-width': 1.5 } },
          { id: 'vessels-simulated', type: 'circle', source: 'vessels', filter: ['==', ['get', 'simulated'], true], paint: { 'circle-radius': 9, 'circle-color': 'rgba(0,0,0,0)', 'circle-stroke-color': '#6a1b9a', 'circle-stroke-width': 1, 'circle-stroke-opacity': 0.6 } },
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
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.on('styleimagemissing', function (e) {
      var parts = e.id.split('-'), colour = COLOURS[parts.slice(1).join('-')];
      if (colour && !map.hasImage(e.id)) map.addImage(e.id, symbol(colour, parts[0] === 'arrow'), { pixelRatio: 2 });
    });

    var clickable = ['vessels', 'sts', 'congestion', 'chokepoints', 'ports', 'more-ports'];
    map.on('click', function (e) {
      var box = [[e.point.x - 4, e.point.y - 4], [e.point.x + 4, e.point.y + 4]];
      var hits = map.queryRenderedFeatures(box, { layers: clickable.filter(function (id) { return map.getLayer(id) && map.getLayoutProperty(id, 'visibility') !== 'none'; }) });
      if (!hits.length) return;
      var order = function (f) { return clickable.indexOf(f.layer.id); };
      hits.sort(function (a, b) { return order(a) - order(b); });
      var f = hits[0];
      card.innerHTML = f.layer.id === 'vessels' ? vesselCard(f.properties) : placeCard(f.properties);
      card.dataset.selected = f.layer.id === 'vessels' ? f.properties.vsl_id : f.layer.id;
    });
    clickable.forEach(function (id) {
      map.on('mouseenter', id, function () { map.getCanvas().style.cursor = 'pointer'; });
      map.on('mouseleave', id, function () { map.getCanvas().style.cursor = ''; });
    });
    document.querySelectorAll('input[name="layer"]').forEach(function (box) {
      box.addEventListener('change', function () {
        var ids = box.value === 'vessels' ? ['vessels', 'vessels-simulated'] : box.value === 'ports' ? ['ports', 'more-ports'] : [box.value];
        ids.forEach(function (id) { map.setLayoutProperty(id, 'visibility', box.checked ? 'visible' : 'none'); });
      });
    });

    function loadVessels() {
      return getJson(cfg.vessels).then(function (fc) {
        map.getSource('vessels').setData(fc);
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
      getJson(cfg.places).then(function (fc) { map.getSource('places').setData(fc); }).catch(function () {});
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
