import assert from 'node:assert/strict';
import test from 'node:test';
import { withApp, type TestApp } from '../helpers/app.js';

const get = async (app: TestApp, token: string, path: string) => app.api('GET', path, { token });

test('routes/direct: Rotterdam–Singapore through Suez, then avoiding Suez round the Cape, with durations and attribution', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const res = await get(app, apiKey, '/v1/routes/direct?from=NLRTM&to=SGSIN');
    assert.equal(res.status, 200);
    assert.equal(res.body.cost_units, 0.95);
    const d = res.body.data;
    assert.ok(d.distance_nm > 8300 * 0.98 && d.distance_nm < 8400 * 1.02, String(d.distance_nm));
    assert.deepEqual(
      d.passages.map((p: { id: string }) => p.id),
      ['dover', 'gibraltar', 'suez', 'babelmandeb', 'malacca'],
    );
    assert.deepEqual([d.from.port.locode, d.from.kind, d.to.port.locode], ['NLRTM', 'port', 'SGSIN']);
    assert.deepEqual([d.ship_type, d.speed_kn, d.speed_source], ['other', 14, 'ship_type_default']);
    assert.equal(d.duration_hours, Math.round((d.distance_nm / 14) * 10) / 10);
    assert.deepEqual(d.avoided, ['corinth', 'northwest', 'northeast']);
    assert.equal(d.geometry.type, 'LineString');
    assert.deepEqual(d.geometry.coordinates[0], [d.from.lon, d.from.lat]);
    assert.ok(d.attribution.some((line: string) => line.includes('Eurostat') && line.includes('EUPL-1.2')));
    assert.deepEqual(d.network, { name: 'Eurostat marnet', resolution_km: 50 });

    const cape = await get(app, apiKey, '/v1/routes/direct?from=NLRTM&to=SGSIN&avoid=suez&ship_type=container');
    const c = cape.body.data;
    assert.deepEqual(
      c.passages.map((p: { id: string }) => p.id),
      ['dover', 'good_hope'],
    );
    assert.ok(c.distance_nm > 11700 * 0.98 && c.distance_nm < 11900 * 1.02, String(c.distance_nm));
    assert.deepEqual([c.speed_kn, c.speed_source], [18, 'ship_type_default']);
    // Estimates for the reference container ship (60,000 kW, design 24 kn, SFOC 175 g/kWh, HFO Cf 3.114).
    const e = c.estimates;
    assert.deepEqual([e.fuel, e.engine_load, e.speed_above_design, e.reference_ship.main_engine_kw], ['HFO', 0.422, false, 60_000]);
    assert.equal(e.fuel_t_per_day, 106.3);
    assert.ok(Math.abs(e.fuel_t - (c.distance_nm / 18 / 24) * 106.3125) < 0.2, String(e.fuel_t));
    assert.ok(Math.abs(e.co2_t - e.fuel_t * 3.114) < 0.2);
    assert.match(e.method, /MEPC\.308\(73\)/);
    const fast = (await get(app, apiKey, '/v1/routes/direct?from=NLRTM&to=SGSIN&ship_type=lng&speed_kn=21')).body.data.estimates;
    assert.deepEqual([fast.fuel, fast.engine_load, fast.speed_above_design], ['LNG', 1, true]);
    assert.ok(Math.abs(fast.co2_t - fast.fuel_t * 2.75) < 0.2);
    assert.ok(c.avoided.includes('suez'));

    const babAlias = await get(app, apiKey, '/v1/routes/direct?from=31140&to=SGSIN&avoid=bab_el_mandeb');
    assert.equal(babAlias.body.data.distance_nm, c.distance_nm, 'avoiding Bab-el-Mandeb is the Cape route too');
    const arctic = await get(app, apiKey, '/v1/routes/direct?from=NLRTM&to=SGSIN&avoid=suez&allow=northeast');
    assert.ok(arctic.body.data.passages.some((p: { id: string }) => p.id === 'northeast'));
  });
});

test('routes/direct: Shanghai–Los Angeles as GeoJSON, cut at the antimeridian; positions and a given speed', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const res = await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=USLAX&format=geojson');
    assert.equal(res.status, 200);
    const f = res.body.data;
    assert.equal(f.type, 'Feature');
    assert.equal(f.geometry.type, 'MultiLineString');
    assert.equal(f.geometry.coordinates.length, 2);
    const [west, east] = f.geometry.coordinates as [number, number][][];
    assert.deepEqual([west![west!.length - 1]![0], east![0]![0]], [180, -180]);
    assert.equal(west![west!.length - 1]![1], east![0]![1]);
    assert.ok(f.properties.distance_nm > 5900 * 0.98 && f.properties.distance_nm < 5900 * 1.02, String(f.properties.distance_nm));
    assert.equal(f.properties.passages.length, 0);

    const pos = await get(app, apiKey, '/v1/routes/direct?from=29.3,-94.6&to=51.98,3.9&speed_kn=12');
    const p = pos.body.data;
    assert.deepEqual([p.from.kind, p.from.port, p.from.lat, p.from.lon], ['position', null, 29.3, -94.6]);
    assert.deepEqual([p.speed_kn, p.speed_source], [12, 'speed_kn']);
    assert.equal(p.duration_days, Math.round((p.distance_nm / 12 / 24) * 100) / 100);
    assert.ok(p.distance_nm > 4900 && p.distance_nm < 5200, String(p.distance_nm));
  });
});

test('routes/with-via: Rotterdam–Piraeus–Jeddah–Singapore in legs; Houston–Rotterdam through a position', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const res = await get(app, apiKey, '/v1/routes/with-via?from=NLRTM&to=SGSIN&via=GRPIR;SAJED');
    assert.equal(res.status, 200);
    assert.equal(res.body.cost_units, 1.05);
    const d = res.body.data;
    assert.deepEqual(
      d.via.map((v: { port: { locode: string } }) => v.port.locode),
      ['GRPIR', 'SAJED'],
    );
    assert.deepEqual(
      d.legs.map((l: { from: string; to: string }) => `${l.from}>${l.to}`),
      ['NLRTM>GRPIR', 'GRPIR>SAJED', 'SAJED>SGSIN'],
    );
    const sum = d.legs.reduce((s: number, l: { distance_nm: number }) => s + l.distance_nm, 0);
    assert.ok(Math.abs(sum - d.distance_nm) < 0.2);
    assert.deepEqual(d.legs[1].passages, ['suez']);
    const direct = await get(app, apiKey, '/v1/routes/direct?from=NLRTM&to=SGSIN');
    assert.ok(d.distance_nm > direct.body.data.distance_nm);

    const pos = await get(app, apiKey, '/v1/routes/with-via?from=USHOU&to=NLRTM&via=38.5,-28.0&ship_type=tanker');
    assert.equal(pos.body.data.via[0].kind, 'position');
    assert.equal(pos.body.data.speed_kn, 13);
    assert.ok(
      pos.body.data.geometry.coordinates.some((c: [number, number]) => c[0] === -28 && c[1] === 38.5),
      'passes through the via',
    );
  });
});

test('routes: every refusal is a clear 4xx with its code', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const cases: [string, number, string, string | undefined][] = [
      ['/v1/routes/direct?from=NLXXX&to=SGSIN', 404, 'port_not_found', 'query.from'],
      ['/v1/routes/direct?from=99999999&to=SGSIN', 404, 'port_not_found', 'query.from'],
      ['/v1/routes/direct?from=Rotterdam&to=SGSIN', 400, 'invalid_request', 'query.from'],
      ['/v1/routes/direct?from=NLRTM&to=91,10', 400, 'invalid_request', 'query.to'],
      ['/v1/routes/direct?from=NLRTM&to=USDLH', 422, 'point_off_network', 'query.to'],
      ['/v1/routes/direct?from=NLRTM&to=31140', 400, 'same_origin_destination', 'query.to'],
      ['/v1/routes/direct?from=1.2,103.8&to=1.2,103.8', 400, 'same_origin_destination', 'query.to'],
      ['/v1/routes/direct?from=NLRTM&to=SGSIN&avoid=suez,atlantis', 400, 'unknown_passage', 'query.avoid'],
      ['/v1/routes/direct?from=NLRTM&to=SGSIN&allow=atlantis', 400, 'unknown_passage', 'query.allow'],
      ['/v1/routes/direct?from=NLRTM&to=SGSIN&avoid=suez,good_hope,cape_horn,magellan,panama', 422, 'route_unreachable', undefined],
      ['/v1/routes/direct?from=TRIST&to=UAODS&avoid=bosporus', 422, 'route_unreachable', undefined],
      ['/v1/routes/direct?from=NLRTM&to=SGSIN&speed_kn=0', 400, 'invalid_request', undefined],
      ['/v1/routes/with-via?from=NLRTM&to=SGSIN&via=GRPIR;GRPIR', 400, 'same_origin_destination', 'query.via[1]'],
      ['/v1/routes/with-via?from=NLRTM&to=SGSIN&via=;', 400, 'invalid_request', 'query.via'],
      [`/v1/routes/with-via?from=NLRTM&to=SGSIN&via=${Array.from({ length: 11 }, (_, i) => `${i},-30`).join(';')}`, 400, 'too_many_vias', 'query.via'],
    ];
    for (const [path, status, code, field] of cases) {
      const res = await get(app, apiKey, path);
      assert.equal(res.status, status, `${path}: ${res.text}`);
      assert.equal(res.body.errors[0].code, code, path);
      if (field !== undefined) assert.equal(res.body.errors[0].field, field, path);
    }
    // the limit itself: ten vias are accepted
    const ten = await get(app, apiKey, `/v1/routes/with-via?from=NLRTM&to=SGSIN&via=${Array.from({ length: 10 }, (_, i) => `${i},-30`).join(';')}`);
    assert.equal(ten.status, 200);
    assert.equal(ten.body.data.legs.length, 11);
    const anonymous = await app.api('GET', '/v1/routes/direct?from=NLRTM&to=SGSIN');
    assert.equal(anonymous.status, 401);
  });
});
