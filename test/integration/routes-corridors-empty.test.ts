import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';

let app: TestApp;
let key: string;

before(async () => {
  app = await startTestApp({ now: TEST_EPOCH });
  key = (await app.registerAgent('corridors-empty', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

const get = async (path: string) => {
  const res = await app.api('GET', `/v1/routes/${path}`, { token: key });
  assert.equal(res.status, 200, path);
  return res.body;
};

test('a store with no positions and nothing analysed: every corridor operation says so and gives no value', async () => {
  const corridors = await get('corridors?corridor=suez');
  assert.deepEqual(corridors.quality_flags, ['events_not_analysed', 'no_baseline', 'no_transits_in_window']);
  assert.deepEqual([corridors.data.analysed_up_to, corridors.data.data_from, corridors.data.baseline.windows], [null, null, 0]);
  const suez = corridors.data.items[0];
  assert.deepEqual([suez.current.transits, suez.current.mean_speed_kn, suez.current.stopped_share, suez.stress.index, suez.stress.level], [0, null, null, null, null]);

  const ranking = await get('corridor-ranking?by=slowdown');
  assert.deepEqual([ranking.data.items.length, ranking.data.unranked.length], [0, 12]);
  const stress = await get('corridor-ranking?by=stress');
  assert.deepEqual([stress.data.items.length, stress.data.unranked[0].reason], [0, 'no measurable route stress index']);

  const health = await get('corridor-health');
  assert.ok(health.data.items.every((i: { score: number | null; weight_measured: number }) => i.score === null && i.weight_measured === 0));
  const watch = await get('corridor-watch');
  assert.deepEqual([watch.data.checked, watch.data.items], [12, []]);

  for (const path of ['corridor-pressure-trend', 'corridor-anomaly-score', 'corridor-stability', 'corridor-regimes']) {
    const body = await get(`${path}?corridor=hormuz`);
    assert.deepEqual(body.quality_flags, ['events_not_analysed', 'no_transits_in_window'], path);
    assert.equal(body.data.days_covered, 0, path);
  }
  const trend = (await get('corridor-pressure-trend?corridor=hormuz')).data.items[0];
  assert.deepEqual([trend.series, trend.slope_per_day, trend.direction], [[], null, null]);
  const anomaly = (await get('corridor-anomaly-score?corridor=hormuz')).data.items[0];
  assert.deepEqual([anomaly.latest, anomaly.metrics.transits.z, anomaly.combined.score, anomaly.combined.anomalous], [null, null, null, false]);
  const stability = (await get('corridor-stability?corridor=hormuz')).data.items[0];
  assert.deepEqual([stability.days, stability.cv, stability.mean_daily_transits], [0, null, null]);
  const regimes = (await get('corridor-regimes?corridor=hormuz')).data.items[0];
  assert.deepEqual([regimes.segments, regimes.current_regime], [[], null]);
});
