import assert from 'node:assert/strict';
import test from 'node:test';
import { createRoutesService } from '../../../src/features/routes/routes-service.js';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { shippedSeaNetwork, type LoadedSeaNetwork } from '../../../src/routing/network-file.js';

const { ports } = readPortTableFile();

/** The shipped network with a counter on route searches. */
function countingNetwork(): { network: () => LoadedSeaNetwork; searches: () => number } {
  const shipped = shippedSeaNetwork();
  let searches = 0;
  const engine = Object.create(shipped.engine) as typeof shipped.engine;
  engine.route = (...args: Parameters<typeof shipped.engine.route>) => {
    searches++;
    return shipped.engine.route(...args);
  };
  const network = { ...shipped, engine };
  return { network: () => network, searches: () => searches };
}

test('route answers are kept per request: the same request is answered from memory, byte for byte what a fresh search gives', () => {
  const counting = countingNetwork();
  const cached = createRoutesService({ ports: () => ports, network: counting.network });
  const fresh = () => createRoutesService({ ports: () => ports });
  const request = { from: 'NLRTM', to: 'SGSIN' };
  const first = cached.direct(request);
  const second = cached.direct(request);
  assert.equal(counting.searches(), 1, 'one search for two identical requests');
  assert.equal(second.dataJson, first.dataJson);
  assert.equal(first.dataJson, JSON.stringify(first.data));
  assert.equal(first.dataJson, JSON.stringify(fresh().direct(request).data), 'what an uncached service answers');

  // anything that changes the answer is part of the key
  for (const variant of [{ avoid: 'suez' }, { speed_kn: 10 }, { ship_type: 'tanker' as const }, { format: 'geojson' as const }, { from: '52.0,3.9' }]) {
    const before = counting.searches();
    const answer = cached.direct({ ...request, ...variant });
    assert.equal(counting.searches(), before + 1, JSON.stringify(variant));
    assert.notEqual(answer.dataJson, first.dataJson, JSON.stringify(variant));
    assert.equal(answer.dataJson, JSON.stringify(fresh().direct({ ...request, ...variant }).data), JSON.stringify(variant));
  }
});

test('the answer cache is bounded (least recently used goes first) and its answers cannot be changed by a caller', () => {
  const counting = countingNetwork();
  const routes = createRoutesService({ ports: () => ports, network: counting.network, answerCacheEntries: 2 });
  const a = { from: 'NLRTM', to: 'SGSIN' };
  const b = { from: 'USHOU', to: 'NLRTM' };
  const c = { from: 'CNSGH', to: 'USLAX' };
  routes.direct(a);
  routes.direct(b);
  routes.direct(a); // a is now the most recent
  routes.direct(c); // b goes
  assert.equal(counting.searches(), 3);
  routes.direct(a);
  assert.equal(counting.searches(), 3, 'a was kept');
  routes.direct(b);
  assert.equal(counting.searches(), 4, 'b had gone');

  const answer = routes.direct(a).data as { distance_nm: number; passages: unknown[] };
  assert.throws(() => {
    answer.distance_nm = 0;
  }, TypeError);
  assert.throws(() => answer.passages.push('x'), TypeError);
});

test('a port table update reaches routing without a restart: a moved port is looked up, and routed, where it now is', () => {
  let table = ports;
  const routes = createRoutesService({ ports: () => table });
  const before = routes.resolvePlace('NLRTM', 'query.from');
  const rotterdam = ports.find((p) => p.port_id === before.port!.port_id)!;
  table = ports.map((p) => (p === rotterdam ? { ...p, lat: 51.96, lon: 4.05 } : p));
  const after = routes.resolvePlace('NLRTM', 'query.from');
  assert.deepEqual([after.lat, after.lon], [51.96, 4.05]);
  assert.notEqual(routes.direct({ from: 'NLRTM', to: 'SGSIN' }).dataJson, createRoutesService({ ports: () => ports }).direct({ from: 'NLRTM', to: 'SGSIN' }).dataJson);
});
