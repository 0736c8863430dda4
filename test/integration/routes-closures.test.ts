import assert from 'node:assert/strict';
import test from 'node:test';
import { withApp, type TestApp } from '../helpers/app.js';

const get = async (app: TestApp, token: string, path: string) => app.api('GET', path, { token });

test('routes/what-if and explain (issue 28): closing a passage never shortens a route — Dover–Calais and ports at straits', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    const dc = (await get(app, apiKey, '/v1/routes/direct?from=GBDVR&to=FRCQF')).body.data;
    assert.ok(dc.distance_nm >= 22 * 0.95 && dc.distance_nm <= 25 * 1.05, String(dc.distance_nm));
    for (const [from, to, closed] of [
      ['GBDVR', 'FRCQF', 'dover'],
      ['GBDVR', 'NLRTM', 'dover'],
      ['GIGIB', 'ESALG', 'gibraltar'],
      ['SGSIN', 'MYTPP', 'malacca'],
      ['EGPSD', 'EGSUZ', 'suez'],
      ['TRIST', 'UAODS', 'bosporus'],
    ] as const) {
      const r = await get(app, apiKey, `/v1/routes/what-if?from=${from}&to=${to}&closed=${closed}`);
      if (r.status === 422) {
        assert.equal(r.body.errors[0].code, 'route_unreachable', `${from}-${to}`);
        continue;
      }
      assert.equal(r.status, 200, r.text);
      assert.ok(r.body.data.added.distance_nm >= 0, `${from}-${to} closed ${closed}: ${r.body.data.added.distance_nm}`);
      const x = await get(app, apiKey, `/v1/routes/explain?from=${from}&to=${to}`);
      for (const alt of x.body.data.alternatives) assert.ok(alt.extra_nm >= 0, `${from}-${to} without ${alt.passage}: ${alt.extra_nm}`);
    }
  });
});
