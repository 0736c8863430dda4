import assert from 'node:assert/strict';
import test from 'node:test';
import { withApp } from '../helpers/app.js';

test('ports/search: by name (the name parameter clients send), a typo, a LOCODE, a country; anonymous callers allowed', async () => {
  await withApp(async (app) => {
    const byName = await app.api('GET', '/v1/ports/search?name=Rotterdam&limit=3');
    assert.equal(byName.status, 200);
    const first = byName.body.data.items[0];
    assert.deepEqual([first.port_id, first.locode, first.country, first.harbor_size, first.match.kind], [31140, 'NLRTM', 'NL', 'large', 'exact']);
    assert.equal(byName.body.cost_units, 0.45);
    assert.ok(byName.body.data.attribution.some((line: string) => line.includes('World Port Index')));

    const typo = await app.api('GET', '/v1/ports/search?q=Rotterdm&limit=3');
    assert.equal(typo.body.data.items[0].locode, 'NLRTM');
    assert.equal(typo.body.data.items[0].match.kind, 'typo');

    const locode = await app.api('GET', '/v1/ports/search?locode=NL%20RTM');
    assert.deepEqual(
      locode.body.data.items.map((p: { port_id: number }) => p.port_id),
      [31140],
    );

    const country = await app.api('GET', '/v1/ports/search?q=rotterdam&country=us');
    assert.ok(country.body.data.items.length >= 1);
    assert.ok(country.body.data.items.every((p: { country: string }) => p.country === 'US'));

    const conflict = await app.api('GET', '/v1/ports/search?locode=EGAIS');
    assert.deepEqual(conflict.body.data.items[0].flags, ['coordinate_conflict']);
    assert.ok(conflict.body.data.items[0].conflict.distance_km > 600);
  });
});

test('ports/search near a point: within the radius, nearest first, with distances', async () => {
  await withApp(async (app) => {
    const res = await app.api('GET', '/v1/ports/search?near=29.5,-94.9&radius_km=50&limit=100');
    assert.equal(res.status, 200);
    const items = res.body.data.items as Array<{ locode: string | null; distance_km: number }>;
    for (const code of ['USHOU', 'USGLS', 'USTXT'])
      assert.ok(
        items.some((p) => p.locode === code),
        code,
      );
    assert.ok(items.every((p) => p.distance_km <= 50));
    const distances = items.map((p) => p.distance_km);
    assert.deepEqual(
      distances,
      [...distances].sort((a, b) => a - b),
    );
  });
});

test('ports/search pages with a signed cursor bound to its query', async () => {
  await withApp(async (app) => {
    const one = await app.api('GET', '/v1/ports/search?country=NL&limit=5');
    assert.equal(one.body.data.items.length, 5);
    assert.ok(one.body.data.total > 5);
    const cursor = one.body.data.next_cursor as string;
    const two = await app.api('GET', `/v1/ports/search?country=NL&limit=5&cursor=${encodeURIComponent(cursor)}`);
    const ids = (page: typeof one) => page.body.data.items.map((p: { port_id: number }) => p.port_id);
    assert.equal(ids(two).length, 5);
    assert.deepEqual(
      ids(one).filter((id: number) => ids(two).includes(id)),
      [],
      'pages do not overlap',
    );
    const all = await app.api('GET', '/v1/ports/search?country=NL&limit=10');
    assert.deepEqual(ids(all), [...ids(one), ...ids(two)]);
    const other = await app.api('GET', `/v1/ports/search?country=BE&limit=5&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(other.status, 400);
    assert.equal(other.body.errors[0].code, 'cursor_invalid');
  });
});

test('ports/search refuses what it cannot answer, with clear codes', async () => {
  await withApp(async (app) => {
    const none = await app.api('GET', '/v1/ports/search');
    assert.equal(none.status, 400);
    assert.equal(none.body.errors[0].code, 'invalid_request');
    assert.match(none.body.errors[0].message, /give q \(or name\), locode, country or near/);
    const badNear = await app.api('GET', '/v1/ports/search?near=95,10');
    assert.equal(badNear.body.errors[0].code, 'invalid_request');
    assert.equal(badNear.body.errors[0].field, 'query.near');
    const radiusAlone = await app.api('GET', '/v1/ports/search?q=x&radius_km=10');
    assert.equal(radiusAlone.body.errors[0].field, 'query.radius_km');
    const badCountry = await app.api('GET', '/v1/ports/search?country=NLD');
    assert.equal(badCountry.status, 400);
  });
});
