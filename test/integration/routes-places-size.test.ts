import assert from 'node:assert/strict';
import test from 'node:test';
import { withApp, type TestApp } from '../helpers/app.js';

const get = async (app: TestApp, token: string, path: string) => app.api('GET', path, { token });
const ids = (d: { passages: { id: string }[] }) => d.passages.map((p) => p.id);

test('routes/direct (issue 28): CNSHA resolves to Shanghai with the alias stated; a start 150 km inland is refused with the nearest coastal point; a port on land is routed with its over-land connector named', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const alias = await get(app, apiKey, '/v1/routes/direct?from=CNSHA&to=USLAX');
    assert.equal(alias.status, 200, alias.text);
    const a = alias.body.data;
    assert.deepEqual([a.from.port.locode, a.from.port.name, a.from.alias.locode], ['CNSGH', 'Shanghai', 'CNSHA']);
    assert.match(a.from.alias.note, /CNSHA is not a port of its own in UN\/LOCODE; it resolves to the port that serves it, CNSGH Shanghai/);
    assert.ok(alias.body.quality_flags.includes('locode_alias'));
    const own = (await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=USLAX')).body;
    assert.equal(a.distance_nm, own.data.distance_nm, 'the alias routes from the port it resolves to');
    assert.equal(own.data.from.alias, undefined);
    assert.ok(!own.quality_flags.includes('locode_alias'));
    // the port table's position of Shanghai is in the city, 17.5 km of Huangpu bank from the estuary: routed, and said so
    assert.ok(own.data.from.network.over_land_km > 10, String(own.data.from.network.over_land_km));
    assert.ok(own.quality_flags.includes('connector_over_land'));

    const paris = await get(app, apiKey, '/v1/routes/direct?from=48.85,2.35&to=NLRTM');
    assert.equal(paris.status, 422, paris.text);
    const e = paris.body.errors[0];
    assert.deepEqual([e.code, e.field], ['point_on_land', 'query.from']);
    assert.match(e.message, /lies 149\.\d km inland \(Natural Earth 1:10m\); the nearest coastal point is 49\.\d+,[01]\.\d+ \(1\d\d\.\d km away\): route from there/);
    const [lat, lon] = /coastal point is (-?[\d.]+),(-?[\d.]+)/.exec(e.message)!.slice(1).map(Number) as [number, number];
    const offered = await get(app, apiKey, `/v1/routes/direct?from=${lat},${lon}&to=NLRTM`);
    assert.equal(offered.status, 200, offered.text);
    assert.ok(offered.body.data.from.network.over_land_km <= 0.5, String(offered.body.data.from.network.over_land_km));
    assert.ok(!offered.body.quality_flags.includes('connector_over_land'));
    // a position at sea is routed as before, its connector at sea
    const sea = (await get(app, apiKey, '/v1/routes/direct?from=51.0,1.6&to=NLRTM')).body.data;
    assert.equal(sea.from.network.over_land_km, 0);
  });
});

test('routes/direct and what-if (issue 28): ship size closes the passages the ship does not fit; a VLCC with Suez closed goes by the Cape, not by Panama', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const any = (await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&avoid=suez')).body.data;
    assert.ok(ids(any).includes('panama'), ids(any).join(','));
    assert.equal(any.ship_size, null);
    const vlcc = (await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&avoid=suez&ship_class=vlcc')).body.data;
    assert.deepEqual(ids(vlcc), ['good_hope', 'dover']);
    assert.deepEqual([vlcc.ship_size.ship_class, vlcc.ship_size.loa_m, vlcc.ship_size.beam_m, vlcc.ship_size.draught_m], ['vlcc', 330, 60, 22]);
    const closed = Object.fromEntries(vlcc.ship_size.closed_by_size.map((c: { passage: string; exceeds: string[] }) => [c.passage, c.exceeds]));
    assert.deepEqual(closed.panama, ['beam 60 m > 51.25 m', 'draught 22 m > 15.24 m']);
    // Suez: 20.1 m up to 50 m beam, 12.2 m at 77.5 m: 17.23 m at 60 m
    assert.deepEqual(closed.suez, ['draught 22 m > 17.23 m']);
    assert.ok(vlcc.avoided.includes('panama') && vlcc.avoided.includes('suez'));
    assert.ok(vlcc.distance_nm > any.distance_nm, 'the Cape is longer than Panama for this pair');

    // an ultra large container ship fits Suez (beam 61.5 m: 16.8 m allowed, draught 16 m) but not Panama
    const ulcv = (await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&ship_class=ulcv')).body.data;
    assert.ok(ids(ulcv).includes('suez'));
    assert.ok(!ulcv.ship_size.closed_by_size.some((c: { passage: string }) => c.passage === 'suez'));
    // explicit dimensions override the class: a VLCC in ballast (draught 12 m) fits Suez
    const ballast = (await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&ship_class=vlcc&draught_m=12')).body.data;
    assert.ok(ids(ballast).includes('suez'));
    assert.equal(ballast.ship_size.draught_m, 12);
    // Kiel: 235 m; a Panamax sails round Skagen
    const kiel = (await get(app, apiKey, '/v1/routes/direct?from=DEHAM&to=FIHEL&ship_class=kiel_max')).body.data;
    const panamax = (await get(app, apiKey, '/v1/routes/direct?from=DEHAM&to=FIHEL&ship_class=panamax')).body.data;
    assert.ok(ids(kiel).includes('kiel') && !ids(panamax).includes('kiel'));
    assert.ok(panamax.distance_nm > kiel.distance_nm + 200);

    const whatIf = await get(app, apiKey, '/v1/routes/what-if?from=CNSGH&to=NLRTM&closed=suez&ship_class=vlcc');
    assert.equal(whatIf.status, 200, whatIf.text);
    const w = whatIf.body.data;
    assert.deepEqual([w.with_closures.passages.includes('good_hope'), w.with_closures.passages.includes('panama'), w.added.distance_nm], [true, false, 0]);
    assert.equal(w.ship_size.ship_class, 'vlcc');
    const plain = (await get(app, apiKey, '/v1/routes/what-if?from=CNSGH&to=NLRTM&closed=suez')).body.data;
    assert.ok(plain.with_closures.passages.includes('panama'), 'without a size the closure reroutes by Panama');

    const bad = await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&ship_class=supertanker');
    assert.deepEqual([bad.status, bad.body.errors[0].code], [400, 'invalid_request']);
    const negative = await get(app, apiKey, '/v1/routes/direct?from=CNSGH&to=NLRTM&draught_m=-3');
    assert.deepEqual([negative.status, negative.body.errors[0].code], [400, 'invalid_request']);
  });
});
