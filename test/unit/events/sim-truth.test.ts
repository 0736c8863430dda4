import assert from 'node:assert/strict';
import test from 'node:test';
import { createEncounterDetector, emptyEncounterState, type Encounter } from '../../../src/events/encounters.js';
import { createPortCallDetector, emptyCallState, PortPointIndex, type PortCall, type PortPoint, type VesselCallState } from '../../../src/events/port-calls.js';
import { readPortTableFile } from '../../../src/features/ports/port-table-file.js';
import { matchPort } from '../../../src/features/ports/port-table.js';
import { distanceM } from '../../../src/geo/distance.js';
import { landIndex } from '../../../src/geo/land.js';
import { BUILTIN_PORTS } from '../../../src/geo/ports-builtin.js';
import { DemoFleet } from '../../../src/sim/fleet.js';
import { simulateWithTruth } from '../../../src/sim/truth.js';

const HOUR = 3_600_000;
const FROM = Date.UTC(2026, 5, 1);
const TO = FROM + 7 * 24 * HOUR;

/**
 * The detectors against the simulator's own truth over 7 simulated days of 150 vessels (seed 11):
 * the measured precision and recall are in bench/RESULTS.md ("Event detectors against simulator truth").
 * The run is deterministic; the thresholds sit a little under the measured values so that a detector
 * change that loses quality fails here.
 */
test('port calls and STS meetings over 7 simulated days: precision and recall against the simulator truth', () => {
  const { ports } = readPortTableFile();
  const byId = new Map(ports.map((p) => [p.port_id, p]));
  const simPort = new Map(BUILTIN_PORTS.map((p) => [p.locode, p]));
  // the simulator's ships anchor and berth where its ports say: those spots are points of the matched table port
  const points: PortPoint[] = ports.flatMap((p) => [{ portId: p.port_id, lat: p.lat, lon: p.lon }, ...p.anchorages.map(([lat, lon]) => ({ portId: p.port_id, lat, lon }))]);
  const matched = new Map<string, number>();
  for (const p of BUILTIN_PORTS) {
    const table = matchPort(ports, p);
    assert.ok(table, p.locode);
    matched.set(p.locode, table.port_id);
    points.push({ portId: table.port_id, lat: p.lat, lon: p.lon }, { portId: table.port_id, lat: p.anchorage.lat, lon: p.anchorage.lon });
  }
  const index = new PortPointIndex(points);
  const week = simulateWithTruth(new DemoFleet({ seed: 11, vessels: 150, startMs: FROM }), FROM, TO);

  const calls: Array<PortCall & { vessel: number }> = [];
  const states = new Map<number, VesselCallState>();
  const detector = createPortCallDetector(index, undefined, new Map(ports.map((p) => [p.port_id, p])));
  const encounters: Encounter[] = [];
  const encounterState = emptyEncounterState();
  // where each vessel lies, as the port-call detector sees it, sets an encounter's setting near a port (decision 077)
  // and, as the event runner wires it, the stops as known when a pair completes and the coastline (decision 115)
  const encounterDetector = createEncounterDetector(index, undefined, {
    kindOf: (id, from, to) => {
      const state = states.get(Number(id));
      return !state ? null : from === to ? detector.stoppedAs(state) : detector.stoppedDuring(state, from, to);
    },
    stillStopped: (id, t) => {
      const state = states.get(Number(id));
      return state ? detector.stillStoppedSince(state, t) : false;
    },
    onLand: (lat, lon) => landIndex().isLand(lon, lat),
  });
  week.samples.forEach((s, i) => {
    let state = states.get(s.vessel);
    if (!state) states.set(s.vessel, (state = emptyCallState()));
    const fix = { seq: i + 1, t: s.t, lat: s.lat, lon: s.lon, sog: s.sog, navStatus: s.status };
    for (const call of detector.push(state, fix)) calls.push({ ...call, vessel: s.vessel });
    encounters.push(...encounterDetector.push(encounterState, { vesselId: String(s.vessel), ...fix }));
  });
  for (const [vessel, state] of states) {
    const call = detector.current(state);
    if (call && call.stops.length > 0) calls.push({ ...call, departure: TO, vessel });
  }
  encounters.push(...encounterDetector.flush(encounterState, Infinity));

  // a detected call matches a truth call of the same vessel overlapping it at the simulator port's table port,
  // or at another table port within 20 km of it (one port area: New York and Newark are separate index ports)
  const truth = week.portCalls.filter((c) => c.end - c.start >= HOUR);
  const samePlace = (portId: number, locode: string) => {
    const a = byId.get(portId)!;
    const b = simPort.get(locode);
    return matched.get(locode) === portId || (b !== undefined && distanceM(a.lat, a.lon, b.lat, b.lon) <= 20_000);
  };
  const matches = (c: (typeof calls)[number], t: (typeof truth)[number]) => c.vessel === t.vessel && c.arrival <= t.end && (c.departure ?? TO) >= t.start && samePlace(c.portId, t.locode);
  const recall = truth.filter((t) => calls.some((c) => matches(c, t))).length / truth.length;
  const precision = calls.filter((c) => week.portCalls.some((t) => matches(c, t))).length / calls.length;
  assert.ok(truth.length > 300, `${truth.length} truth calls`);
  // one to one: a detected call counts for one truth call only (a tug moving between berths in one port area is one call to the detector)
  const used = new Set<number>();
  let paired = 0;
  for (const t of truth) {
    const i = calls.findIndex((c, k) => !used.has(k) && matches(c, t));
    if (i >= 0) {
      used.add(i);
      paired++;
    }
  }
  const strictRecall = paired / truth.length;
  console.log(`port calls: ${truth.length} true, ${calls.length} detected, recall ${recall.toFixed(3)} (one to one ${strictRecall.toFixed(3)}), precision ${precision.toFixed(3)}`);
  assert.ok(strictRecall >= 0.55, `one-to-one port-call recall ${strictRecall.toFixed(3)}`);
  assert.ok(recall >= 0.95, `port-call recall ${recall.toFixed(3)}`);
  assert.ok(precision >= 0.9, `port-call precision ${precision.toFixed(3)}`);

  const key = (a: number, b: number) => [String(a), String(b)].sort().join('|');
  const meetings = week.meetings.filter((m) => m.end - m.start >= 2 * HOUR);
  const found = (m: (typeof meetings)[number], e: Encounter) => e.vessels.join('|') === key(m.shuttle, m.storage) && e.start <= m.end && e.end >= m.start;
  // what GET /v1/sts/events lists by default: open sea and anchorage, not ships side by side in port
  const listed = encounters.filter((e) => e.setting !== 'port');
  const stsRecall = meetings.filter((m) => listed.some((e) => found(m, e))).length / meetings.length;
  const stsPrecision = listed.filter((e) => meetings.some((m) => found(m, e))).length / listed.length;
  assert.ok(meetings.length >= 10, `${meetings.length} meetings`);
  assert.ok(stsRecall >= 0.95, `STS recall ${stsRecall.toFixed(3)}`);
  assert.ok(stsPrecision >= 0.95, `STS precision ${stsPrecision.toFixed(3)}`);
  console.log(
    `simulator truth, 150 vessels × 7 days: port calls ${truth.length} true / ${calls.length} detected, recall ${recall.toFixed(3)}, precision ${precision.toFixed(3)}; STS ${meetings.length} true / ${listed.length} listed (${encounters.length - listed.length} in port), recall ${stsRecall.toFixed(3)}, precision ${stsPrecision.toFixed(3)}`,
  );
});
