/**
 * Bosun's answers against the ground truth of bench/truth/ground-truth.ts: markdown lines.
 *
 * Matching rules (docs/events.md, "Truth harness"):
 * - a truth stop is found when Bosun's stops of the same vessel cover at least half of it;
 * - a Bosun stop of at least 30 minutes is right when truth stops of the vessel cover at least half of it;
 * - berth/anchor agreement: on found cargo/tanker stops, Bosun's kind of the stop covering most of it;
 * - timing: start and end differences of found stops whose start (end) is inside the file, where the Bosun stop
 *   lies mostly within the truth stop (one to one);
 * - a truth pair is reported when Bosun has an encounter of the same two vessels overlapping it in time;
 * - per port: a truth stop belongs to the port with the nearest charted point (position or anchorage point of
 *   the port table) within 30 km; at each instant, the cargo/tanker truth stops holding a vessel then (ground-truth.ts stopsAt) are the port's
 *   ships waiting (anchor) and at berth, against Bosun's `congestion?at=` of that port (cargo + tanker).
 *   Ports with at least 10 such ships at an instant are listed; the ±15 % criterion is checked on each
 *   figure (waiting, at berth) of at least 10 ships in the truth.
 */
import { isCargoOrTanker, MIN_STOP_MS, portAttribution, stopsAt, type ChartedPoint, type TruthDay, type TruthPair, type TruthStop } from './ground-truth.js';

export interface BosunStop {
  kind: 'anchorage' | 'berth';
  start: number;
  end: number;
}

export interface BosunDay {
  detectSeconds: number;
  mmsiOf: Map<string, number>;
  calls: Array<{ vsl_id: string; port_id: number; stops: string; arrival: number; departure: number | null }>;
  encounters: Array<{ vsl_a: string; vsl_b: string; start_at: number; end_at: number; setting?: string | null }>;
  portName: (portId: number) => string;
  /** Every port's charted points (position and anchorage points of the port table): the truth's port attribution reads them. */
  chartedPoints: ChartedPoint[];
  congestion: (portId: number, at: number) => Promise<{ waiting: number; atBerth: number }>;
  visitRank: (from: number, to: number) => Promise<Array<{ rank: number; name: string; calls: number; vessels: number }>>;
}

function nearestCharted(points: readonly ChartedPoint[], lat: number, lon: number): { portId: number; m: number } | null {
  let best: { portId: number; m: number } | null = null;
  for (const p of points) {
    const dy = (p.lat - lat) * 111_320;
    const dx = (p.lon - lon) * 111_320 * Math.cos((lat * Math.PI) / 180);
    const m = Math.hypot(dx, dy);
    if (!best || m < best.m) best = { portId: p.portId, m };
  }
  return best;
}

const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) => Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
const ratio = (n: number, d: number) => (d === 0 ? '–' : (n / d).toFixed(3));
/** Relative error of Bosun's figure against the truth's, in per cent (signed). */
const relErr = (bosun: number, truth: number) => (truth === 0 ? (bosun === 0 ? 0 : Infinity) : ((bosun - truth) / truth) * 100);
const signedPct = (e: number) => (Number.isFinite(e) ? `${e > 0 ? '+' : ''}${Math.round(e)} %` : '∞');
export const PER_PORT_MIN_SHIPS = 10;
export const PER_PORT_TOLERANCE_PCT = 15;
const pct = (n: number, d: number) => (d === 0 ? '–' : `${Math.round((n / d) * 100)} %`);
function quantileMin(values: number[], q: number): string {
  if (values.length === 0) return '–';
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]! / 60_000).toFixed(1);
}

export async function compare(day: TruthDay, truth: readonly TruthStop[], pairs: readonly TruthPair[], bosun: BosunDay, times: readonly number[], listMisses = false): Promise<string[]> {
  const out: string[] = [];
  const typeOf = (mmsi: number) => day.vessels.get(mmsi)?.type ?? null;
  const bosunStops = new Map<number, Array<BosunStop & { portId: number }>>();
  for (const call of bosun.calls) {
    const mmsi = bosun.mmsiOf.get(call.vsl_id);
    if (mmsi === undefined) continue;
    const list = bosunStops.get(mmsi) ?? [];
    for (const s of JSON.parse(call.stops) as BosunStop[]) list.push({ kind: s.kind, start: s.start, end: s.end, portId: call.port_id });
    bosunStops.set(mmsi, list);
  }
  const truthBy = new Map<number, TruthStop[]>();
  for (const s of truth) truthBy.set(s.mmsi, [...(truthBy.get(s.mmsi) ?? []), s]);

  const found = (s: TruthStop) => {
    const list = bosunStops.get(s.mmsi) ?? [];
    const covered = list.reduce((sum, b) => sum + overlap(s, b), 0);
    if (covered < (s.end - s.start) / 2) return null;
    return list.reduce((best, b) => (overlap(s, b) > overlap(s, best) ? b : best), list[0]!);
  };
  const right = (mmsi: number, b: BosunStop) => (truthBy.get(mmsi) ?? []).reduce((sum, s) => sum + overlap(s, b), 0) >= (b.end - b.start) / 2;

  const cargo = truth.filter((s) => isCargoOrTanker(typeOf(s.mmsi)));
  const allFound = truth.filter((s) => found(s) !== null).length;
  const cargoFound = cargo.map((s) => ({ s, b: found(s) })).filter((x) => x.b !== null) as Array<{ s: TruthStop; b: BosunStop }>;
  const long = [...bosunStops].flatMap(([mmsi, list]) => list.filter((b) => b.end - b.start >= MIN_STOP_MS).map((b) => ({ mmsi, b })));
  const longCargo = long.filter((x) => isCargoOrTanker(typeOf(x.mmsi)));
  const agree = cargoFound.filter(({ s, b }) => (s.kind === 'anchor') === (b.kind === 'anchorage')).length;
  const confusion = (t: TruthStop['kind'], k: BosunStop['kind']) => cargoFound.filter(({ s, b }) => s.kind === t && b.kind === k).length;
  // timing of one-to-one matches: the Bosun stop lies mostly within this truth stop (not one bridging a silence that splits the truth)
  const oneToOne = cargoFound.filter(({ s, b }) => overlap(s, b) >= (b.end - b.start) / 2);
  const startErr = oneToOne.filter(({ s }) => !s.clippedStart).map(({ s, b }) => Math.abs(s.start - b.start));
  const endErr = oneToOne.filter(({ s }) => !s.clippedEnd).map(({ s, b }) => Math.abs(s.end - b.end));
  const anchorMs = cargo.filter((s) => s.kind === 'anchor').reduce((sum, s) => sum + s.end - s.start, 0);
  const anchorWaitingMs = cargo
    .filter((s) => s.kind === 'anchor')
    .reduce((sum, s) => sum + (bosunStops.get(s.mmsi) ?? []).filter((b) => b.kind === 'anchorage').reduce((x, b) => x + overlap(s, b), 0), 0);

  out.push('| measure | value |', '|---|---|');
  out.push(
    `| truth stops ≥ 30 min (all vessels / cargo+tanker; anchor / berth of those) | ${truth.length} / ${cargo.length}; ${cargo.filter((s) => s.kind === 'anchor').length} / ${cargo.filter((s) => s.kind === 'berth').length} |`,
  );
  out.push(`| stop recall, all stops ≥ 30 min | ${ratio(allFound, truth.length)} (${allFound}/${truth.length}) |`);
  out.push(`| stop recall, cargo + tanker | ${ratio(cargoFound.length, cargo.length)} (${cargoFound.length}/${cargo.length}) |`);
  out.push(
    `| precision of Bosun's stops ≥ 30 min, all / cargo + tanker | ${ratio(long.filter((x) => right(x.mmsi, x.b)).length, long.length)} (${long.length}) / ${ratio(longCargo.filter((x) => right(x.mmsi, x.b)).length, longCargo.length)} (${longCargo.length}) |`,
  );
  out.push(
    `| berth/anchor agreement, found cargo + tanker stops | ${ratio(agree, cargoFound.length)} (anchor→anchorage ${confusion('anchor', 'anchorage')}, anchor→berth ${confusion('anchor', 'berth')}, berth→berth ${confusion('berth', 'berth')}, berth→anchorage ${confusion('berth', 'anchorage')}) |`,
  );
  out.push(`| start error, median / p90 (min) | ${quantileMin(startErr, 0.5)} / ${quantileMin(startErr, 0.9)} (${startErr.length} stops) |`);
  out.push(`| end error, median / p90 (min) | ${quantileMin(endErr, 0.5)} / ${quantileMin(endErr, 0.9)} (${endErr.length} stops) |`);
  if (listMisses) {
    for (const s of cargo.filter((x) => found(x) === null)) {
      out.push(
        `| missed | ${s.mmsi} ${day.vessels.get(s.mmsi)?.name ?? ''} ${s.kind} ${s.lat.toFixed(4)},${s.lon.toFixed(4)} ${new Date(s.start).toISOString().slice(11, 16)}–${new Date(s.end).toISOString().slice(11, 16)} |`,
      );
    }
  }
  if (listMisses) {
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    for (const { mmsi, b } of longCargo.filter((x) => !right(x.mmsi, x.b))) {
      out.push(`| not in truth | ${mmsi} ${day.vessels.get(mmsi)?.name ?? ''} ${b.kind} ${bosun.portName(b.portId)} ${hhmm(b.start)}–${hhmm(b.end)} |`);
    }
    for (const { s, b } of cargoFound.filter((x) => (x.s.kind === 'anchor') !== (x.b.kind === 'anchorage'))) {
      out.push(
        `| disagree | ${s.mmsi} ${day.vessels.get(s.mmsi)?.name ?? ''} truth ${s.kind} (${s.spreadM} m, ${s.headingRangeDeg ?? '–'}°) Bosun ${b.kind} ${s.lat.toFixed(4)},${s.lon.toFixed(4)} ${hhmm(s.start)}–${hhmm(s.end)} |`,
      );
    }
  }
  out.push(`| cargo/tanker anchor hours labelled as waiting | ${pct(anchorWaitingMs, anchorMs)} of ${(anchorMs / 3_600_000).toFixed(0)} h |`);

  // who is waiting and at berth at given moments: truth over the whole file's area, Bosun summed over its ports
  const ports = [...new Set(bosun.calls.map((c) => c.port_id))];
  out.push('', '| at (UTC) | truth waiting at anchor | Bosun waiting | truth at berth | Bosun at berth | Bosun by port (waiting/berth) |', '|---|---|---|---|---|---|');
  for (const at of times) {
    const covering = stopsAt(cargo, at, day);
    const byPort: string[] = [];
    let waiting = 0;
    let atBerth = 0;
    for (const portId of ports) {
      const c = await bosun.congestion(portId, at);
      waiting += c.waiting;
      atBerth += c.atBerth;
      if (c.waiting + c.atBerth > 0) byPort.push(`${bosun.portName(portId)} ${c.waiting}/${c.atBerth}`);
    }
    out.push(
      `| ${new Date(at).toISOString().slice(11, 16)} | ${covering.filter((s) => s.kind === 'anchor').length} | ${waiting} | ${covering.filter((s) => s.kind === 'berth').length} | ${atBerth} | ${byPort.join(', ')} |`,
    );
  }

  // per port: the truth's ships of each port (nearest charted point) against Bosun's congestion of that port
  const portOf = portAttribution(cargo, bosun.chartedPoints);
  const congestionOf = new Map<string, { waiting: number; atBerth: number }>();
  const bosunAt = async (portId: number, at: number) => {
    const key = `${portId}@${at}`;
    if (!congestionOf.has(key)) congestionOf.set(key, await bosun.congestion(portId, at));
    return congestionOf.get(key)!;
  };
  out.push(
    '',
    `Per port (truth: cargo/tanker stops attributed to the port with the nearest charted point within 30 km; ports with ≥ ${PER_PORT_MIN_SHIPS} such ships at an instant):`,
    '',
    '| port | at (UTC) | truth waiting | Bosun waiting | error | truth at berth | Bosun at berth | error |',
    '|---|---|---|---|---|---|---|---|',
  );
  const checks: Array<{ ok: boolean; what: string }> = [];
  for (const at of times) {
    const byPort = new Map<number, { waiting: number; atBerth: number }>();
    for (const s of stopsAt(cargo, at, day)) {
      const portId = portOf.get(s);
      if (portId === null || portId === undefined) continue;
      const c = byPort.get(portId) ?? { waiting: 0, atBerth: 0 };
      if (s.kind === 'anchor') c.waiting++;
      else c.atBerth++;
      byPort.set(portId, c);
    }
    for (const [portId, t] of [...byPort].sort((a, b) => b[1].waiting + b[1].atBerth - (a[1].waiting + a[1].atBerth))) {
      if (t.waiting + t.atBerth < PER_PORT_MIN_SHIPS) continue;
      const b = await bosunAt(portId, at);
      const hhmm = new Date(at).toISOString().slice(11, 16);
      const [ew, eb] = [relErr(b.waiting, t.waiting), relErr(b.atBerth, t.atBerth)];
      out.push(`| ${bosun.portName(portId)} | ${hhmm} | ${t.waiting} | ${b.waiting} | ${signedPct(ew)} | ${t.atBerth} | ${b.atBerth} | ${signedPct(eb)} |`);
      if (t.waiting >= PER_PORT_MIN_SHIPS) checks.push({ ok: Math.abs(ew) <= PER_PORT_TOLERANCE_PCT, what: `${bosun.portName(portId)} ${hhmm} waiting ${signedPct(ew)}` });
      if (t.atBerth >= PER_PORT_MIN_SHIPS) checks.push({ ok: Math.abs(eb) <= PER_PORT_TOLERANCE_PCT, what: `${bosun.portName(portId)} ${hhmm} at berth ${signedPct(eb)}` });
    }
  }
  const failed = checks.filter((c) => !c.ok);
  out.push(
    '',
    `±${PER_PORT_TOLERANCE_PCT} % per port (each figure of ≥ ${PER_PORT_MIN_SHIPS} ships in the truth): ${checks.length === 0 ? 'no figure qualifies' : failed.length === 0 ? `PASS (${checks.length}/${checks.length})` : `FAIL (${checks.length - failed.length}/${checks.length} within; outside: ${failed.map((c) => c.what).join('; ')})`}`,
  );

  // stationary pairs with a cargo ship or tanker in them, by the setting the truth sees
  const vslOf = new Map([...bosun.mmsiOf].map(([v, m]) => [m, v]));
  const reported = (p: TruthPair) => {
    const a = vslOf.get(p.a);
    const b = vslOf.get(p.b);
    return bosun.encounters.find((e) => ((e.vsl_a === a && e.vsl_b === b) || (e.vsl_a === b && e.vsl_b === a)) && overlap(p, { start: e.start_at, end: e.end_at }) > 0);
  };
  out.push('', '| truth setting | stationary pairs (cargo/tanker, ≤ 100 m, ≥ 1 h) | reported by Bosun | Bosun setting of those |', '|---|---|---|---|');
  for (const setting of ['anchorage', 'mixed', 'port'] as const) {
    const list = pairs.filter((p) => p.setting === setting);
    const hits = list.map(reported).filter((e) => e !== undefined);
    const settings = new Map<string, number>();
    for (const e of hits) settings.set(e.setting ?? 'none', (settings.get(e.setting ?? 'none') ?? 0) + 1);
    out.push(`| ${setting} | ${list.length} | ${hits.length} | ${[...settings].map(([k, n]) => `${k} ${n}`).join(', ') || '–'} |`);
  }
  const atAnchorages = pairs.filter((p) => p.setting === 'anchorage');
  const asAnchorage = atAnchorages.filter((p) => reported(p)?.setting === 'anchorage').length;
  out.push(
    '',
    `Stationary pairs at anchorages reported with setting \`anchorage\`: ${asAnchorage}/${atAnchorages.length} (${pct(asAnchorage, atAnchorages.length)}; issue 26 asks ≥ 80 %: ${atAnchorages.length === 0 ? 'no pairs' : asAnchorage / atAnchorages.length >= 0.8 ? 'PASS' : 'FAIL'})`,
    '',
  );
  if (listMisses) {
    const iso = (t: number) => new Date(t).toISOString().slice(11, 16);
    const stopKinds = (mmsi: number, p: TruthPair) =>
      (bosunStops.get(mmsi) ?? [])
        .filter((s) => overlap(s, p) > 0)
        .map((s) => `${s.kind} ${iso(s.start)}–${iso(s.end)} (${bosun.portName(s.portId)})`)
        .join(', ') || 'no Bosun stop';
    for (const p of atAnchorages.filter((q) => reported(q)?.setting !== 'anchorage')) {
      const e = reported(p);
      out.push(
        `- anchorage pair not reported as anchorage: ${day.vessels.get(p.a)?.name ?? p.a} (${p.a}) + ${day.vessels.get(p.b)?.name ?? p.b} (${p.b}) ${iso(p.start)}–${iso(p.end)} ${p.medianDistanceM} m at ${p.lat.toFixed(4)}, ${p.lon.toFixed(4)}; Bosun: ${e ? `${e.setting} ${iso(e.start_at)}–${iso(e.end_at)}` : 'no encounter'}; stops ${p.a}: ${stopKinds(p.a, p)}; ${p.b}: ${stopKinds(p.b, p)}`,
      );
    }
    for (const p of pairs.filter((q) => q.setting === 'port' && reported(q)?.setting === 'open_sea')) {
      const near = nearestCharted(bosun.chartedPoints, p.lat, p.lon);
      out.push(
        `- pair alongside reported as open_sea: ${day.vessels.get(p.a)?.name ?? p.a} (${p.a}) + ${day.vessels.get(p.b)?.name ?? p.b} (${p.b}) ${iso(p.start)}–${iso(p.end)} ${p.medianDistanceM} m at ${p.lat.toFixed(4)}, ${p.lon.toFixed(4)}; nearest charted point ${near ? `${bosun.portName(near.portId)} ${(near.m / 1000).toFixed(1)} km` : 'none'}; stops ${p.a}: ${stopKinds(p.a, p)}; ${p.b}: ${stopKinds(p.b, p)}`,
      );
    }
    out.push('');
  }
  const bySetting = new Map<string, number>();
  for (const e of bosun.encounters) bySetting.set(e.setting ?? 'none', (bySetting.get(e.setting ?? 'none') ?? 0) + 1);
  out.push(`| all Bosun encounters | | ${bosun.encounters.length} | ${[...bySetting].map(([k, n]) => `${k} ${n}`).join(', ') || '–'} |`);

  const dayStart = Math.floor(day.firstT / 86_400_000) * 86_400_000;
  const rank = await bosun.visitRank(dayStart, dayStart + 86_400_000);
  out.push('', `Visit rank (calls that began on the day): ${rank.map((r) => `${r.rank}. ${r.name} ${r.calls} calls/${r.vessels} vessels`).join('; ')}`);
  return out;
}
