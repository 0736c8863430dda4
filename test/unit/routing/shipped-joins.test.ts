import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { RoutingError } from '../../../src/routing/engine.js';
import { decodeSeaNetwork, engineFromLines, knownJoinsFrom, SHIPPED_SEA_NETWORK } from '../../../src/routing/network-file.js';

// Decision 148: the joins of the port table's places ship in the network file. They must be the joins the engine
// finds at run time with the same network and land, number for number; other places are joined as before.
const { lines, placeJoins } = decodeSeaNetwork(readFileSync(SHIPPED_SEA_NETWORK()));
const searching = engineFromLines(lines);
const shipped = engineFromLines(lines, placeJoins);
const knownJoins = placeJoins === undefined ? undefined : knownJoinsFrom(placeJoins, searching.graph);
const ports = readPortTableFile().ports;

test('shipped joins: every place of the port table has its joins in the file, or is refused as off the network', () => {
  assert.ok(knownJoins, 'the network file carries place_joins');
  let shippedPlaces = 0;
  for (const port of ports) {
    if (knownJoins(port) !== undefined) {
      shippedPlaces++;
      continue;
    }
    assert.throws(
      () => searching.joins(port),
      (error: unknown) => error instanceof RoutingError && error.code === 'point_off_network',
      `${port.locode ?? port.port_id} ${port.name} has no shipped joins but is not off the network`,
    );
  }
  assert.ok(shippedPlaces > 15_000, `${shippedPlaces} places shipped`);
});

test('shipped joins equal the joins searched at run time, coordinate by coordinate, on a sample of ports and on places joined over water', () => {
  const sample = ports.filter((_, i) => i % 250 === 0);
  const overWater = ports.filter((p) => knownJoins?.(p)?.some((j) => j.waterPath !== undefined)).slice(0, 4);
  assert.equal(overWater.length, 4, 'the file holds water-path joins');
  let compared = 0;
  for (const port of [...sample, ...overWater]) {
    const fromFile = knownJoins?.(port);
    if (fromFile === undefined) continue;
    const point = { lat: port.lat, lon: port.lon };
    assert.deepStrictEqual(fromFile, searching.joins(point), `${port.locode ?? port.port_id} ${port.name}`);
    assert.deepStrictEqual(shipped.joins(point), fromFile, `${port.locode ?? port.port_id} ${port.name} through the engine`);
    compared++;
  }
  assert.ok(compared >= 55, `${compared} places compared`);
});

test('a place not in the file (a port moved by 0.01°) is joined by the search, as before', () => {
  const port = ports.find((p) => p.locode === 'NLRTM')!;
  const moved = { lat: port.lat + 0.01, lon: port.lon };
  assert.equal(knownJoins?.(moved), undefined);
  const joins = shipped.joins(moved);
  assert.ok(joins.length >= 1);
  assert.deepStrictEqual(joins, searching.joins(moved));
  assert.equal(joins[0]!.lat, moved.lat);
});
