import { SAMPLE_VESSEL } from '../fleet/sample-vessel.js';
/**
 * The demo fleet: a few hundred simulated vessels and the AIVDM sentences they transmit, in
 * time order. Everything is a function of the seed and the times asked for.
 */
import { DAY } from '../platform/clock.js';
import { encodeClassBPosition, encodePositionReport, encodeStaticPartA, encodeStaticPartB, encodeStaticVoyage, toSentences } from '../ais/encode.js';
import { Agenda, reportNoise, stateIn, STS_SHUTTLES, type Segment, type VesselSpec, type VesselState } from './agenda.js';
import { FLAG_MIDS, IdentityFactory, OCEAN_FLAGS } from './identity.js';
import { hashInts, hashUnit, Rng } from './random.js';
import { FLEET_KINDS, PROFILES, type VesselKind, type VesselProfile } from './vessel-types.js';
import { FERRY_PAIRS, SimWorld, type SimPort, type StsArea } from './world.js';
import { shippedSeaLanes, type SeaLanes } from './lanes.js';

/** The `s:` source written in every tag block, and the feed name. */
export const DEMO_SOURCE = 'demo-simulator';

/** How often vessels report, in seconds. */
export interface EmissionRates {
  /** Class A position reports while moving. */
  underwaySeconds: number;
  /** Class B position reports while moving. */
  classBUnderwaySeconds: number;
  /** Position reports at anchor, moored, drifting. */
  stationarySeconds: number;
  /** Static and voyage data (type 5, or 24A + 24B). */
  staticSeconds: number;
}

/**
 * Live rates follow ITU-R M.1371 reporting intervals (class A 10 s under way, 3 min at anchor,
 * static every 6 min; class B 30 s).
 */
export const LIVE_RATES: EmissionRates = { underwaySeconds: 10, classBUnderwaySeconds: 30, stationarySeconds: 180, staticSeconds: 360 };
/**
 * Backfill thins the history so a week of a few hundred vessels loads in well under a minute:
 * a position every 6 minutes under way, every 30 minutes at anchor or alongside, static data hourly.
 */
export const BACKFILL_RATES: EmissionRates = { underwaySeconds: 360, classBUnderwaySeconds: 360, stationarySeconds: 1800, staticSeconds: 3600 };

export interface SimVessel {
  index: number;
  kind: VesselKind;
  mmsi: number;
  /** Null for vessels without an IMO number (small fishing boats). */
  imo: number | null;
  name: string;
  callsign: string;
  flag: string;
  shipType: number;
  classB: boolean;
  lengthM: number;
  beamM: number;
  toBow: number;
  toStern: number;
  toPort: number;
  toStarboard: number;
  homePort: string;
  stsArea: string | null;
}

export interface DemoFleetOptions {
  seed: number;
  vessels: number;
  /** Reports are produced for times after this instant. */
  startMs: number;
  rates?: EmissionRates;
  graph?: SeaLanes;
}

/** One line and the observation time it carries. */
export type LineCallback = (line: string, timeMs: number) => void;

const KIND_POSITION = 0;
const KIND_STATIC = 1;

/** Events ordered by time, then vessel and kind, so the output order never depends on insertion order. */
class EventQueue {
  private times: number[] = [];
  private ids: number[] = [];

  get size(): number {
    return this.times.length;
  }

  push(time: number, id: number): void {
    let i = this.times.length;
    this.times.push(time);
    this.ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!(time < this.times[parent]! || (time === this.times[parent]! && id < this.ids[parent]!))) break;
      this.times[i] = this.times[parent]!;
      this.ids[i] = this.ids[parent]!;
      i = parent;
    }
    this.times[i] = time;
    this.ids[i] = id;
  }

  peekTime(): number {
    return this.times[0]!;
  }

  pop(): { time: number; id: number } {
    const top = { time: this.times[0]!, id: this.ids[0]! };
    const lastTime = this.times.pop()!;
    const lastId = this.ids.pop()!;
    const n = this.times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        let child = left;
        if (right < n && (this.times[right]! < this.times[left]! || (this.times[right] === this.times[left] && this.ids[right]! < this.ids[left]!))) child = right;
        const ct = this.times[child]!;
        if (ct > lastTime || (ct === lastTime && this.ids[child]! > lastId)) break;
        this.times[i] = ct;
        this.ids[i] = this.ids[child]!;
        i = child;
      }
      this.times[i] = lastTime;
      this.ids[i] = lastId;
    }
    return top;
  }

  clear(): void {
    this.times = [];
    this.ids = [];
  }
}

/**
 * Labelled vessels of each kind (a loiterer, a vessel that goes dark) added to a fleet of `total`:
 * one per fifty, at least one from 12 vessels on (the size from which STS areas are simulated).
 */
export function labelledPerKind(total: number): number {
  return total >= 12 ? Math.max(1, Math.round(total / 50)) : 0;
}

/** Counts per kind of fleet size; STS areas take one storage tanker and its shuttles each. */
function fleetComposition(total: number): { kinds: VesselKind[]; stsAreas: number } {
  const stsAreas = total >= 12 ? Math.min(4, Math.max(1, Math.round(total / 100))) : 0;
  const rest = total - stsAreas * (1 + STS_SHUTTLES);
  const exact = FLEET_KINDS.map((kind) => PROFILES[kind].share * rest);
  const counts = exact.map(Math.floor);
  let missing = rest - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((value, i) => [value - Math.floor(value), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (missing <= 0) break;
    counts[i]!++;
    missing--;
  }
  const kinds: VesselKind[] = [];
  FLEET_KINDS.forEach((kind, i) => {
    for (let n = 0; n < counts[i]!; n++) kinds.push(kind);
  });
  return { kinds, stsAreas };
}

export class DemoFleet {
  readonly vessels: readonly SimVessel[];
  readonly world: SimWorld;
  /** The simulated world starts here; vessels are well mixed by the time reports are asked for. */
  readonly genesisMs: number;
  private readonly agendas: Agenda[];
  private readonly queue = new EventQueue();
  private rates: EmissionRates;
  private cursorMs: number;
  private readonly seed: number;

  constructor(options: DemoFleetOptions) {
    this.seed = options.seed >>> 0;
    this.rates = options.rates ?? LIVE_RATES;
    this.world = new SimWorld(options.graph ?? shippedSeaLanes());
    this.genesisMs = DemoFleet.genesisFor(options.startMs);
    const rng = new Rng(hashInts(this.seed, 0x5eed));
    const ids = new IdentityFactory(new Rng(hashInts(this.seed, 0x1d)));
    ids.reserve(SAMPLE_VESSEL.mmsi, SAMPLE_VESSEL.imo);
    let sampleGiven = false;
    const { kinds, stsAreas } = fleetComposition(Math.max(0, Math.floor(options.vessels)));
    const specs: { spec: Omit<VesselSpec, 'index'>; local: boolean }[] = [];

    const largePorts = this.world.ports.filter((p) => p.size === 'large');
    let tugs = 0;
    let ferries = 0;
    for (const kind of kinds) {
      const profile = PROFILES[kind];
      let homePort: SimPort;
      let ferryPartner: SimPort | null = null;
      let local = false;
      if (kind === 'tug') {
        homePort = largePorts[(tugs++ * 7) % largePorts.length]!;
        local = true;
      } else if (kind === 'fishing') {
        homePort = rng.weighted(this.world.ports, (p) => (p.size === 'medium' ? 2 : 1));
        local = true;
      } else if (kind === 'passenger' && rng.chance(0.6)) {
        const pair = FERRY_PAIRS[ferries % FERRY_PAIRS.length]!;
        const side = Math.floor(ferries / FERRY_PAIRS.length) % 2;
        homePort = this.world.port(pair[side]!);
        ferryPartner = this.world.port(pair[1 - side]!);
        ferries++;
        local = true;
      } else {
        homePort = rng.weighted(this.world.ports, (p) => (p.size === 'large' ? 3 : 1));
      }
      specs.push({ spec: this.dimensions(rng, profile, homePort, ferryPartner, null, 0), local });
    }
    for (let a = 0; a < stsAreas; a++) {
      const area = this.world.stsAreas[a]!;
      specs.push({ spec: this.dimensions(rng, PROFILES.sts_storage, this.world.port(area.ports[0]!), null, area, 0), local: false });
      for (let slot = 0; slot < STS_SHUTTLES; slot++) {
        const home = this.world.port(area.ports[slot % area.ports.length]!);
        specs.push({ spec: this.dimensions(rng, PROFILES.sts_shuttle, home, null, area, slot), local: false });
      }
    }
    // labelled vessels, after the rest so that the others are the same with or without them
    for (let n = 0; n < labelledPerKind(options.vessels); n++) {
      for (const kind of ['loiterer', 'dark'] as const) specs.push({ spec: this.dimensions(rng, PROFILES[kind], rng.pick(largePorts), null, null, 0), local: false });
    }

    const vessels: SimVessel[] = [];
    this.agendas = [];
    specs.forEach(({ spec, local }, index) => {
      const { profile } = spec;
      const isSample = !sampleGiven && !local && profile.hasImo && spec.stsArea === null;
      sampleGiven ||= isSample;
      const drawnFlag = local && FLAG_MIDS[spec.homePort.country] ? spec.homePort.country : rng.weighted(OCEAN_FLAGS, ([, w]) => w)[0];
      const flag = isSample ? SAMPLE_VESSEL.flag : drawnFlag;
      const toBow = Math.round(spec.lengthM * rng.float(0.75, 0.88));
      const toPort = Math.round(spec.beamM / 2);
      const vessel: SimVessel = {
        index,
        kind: profile.kind,
        mmsi: isSample ? SAMPLE_VESSEL.mmsi : ids.mmsi(flag),
        imo: isSample ? SAMPLE_VESSEL.imo : profile.hasImo ? ids.imo() : null,
        name: ids.name(profile.names[0], profile.names[1]),
        callsign: ids.callsign(flag),
        flag,
        shipType: rng.pick(profile.shipTypes),
        classB: profile.classB,
        lengthM: spec.lengthM,
        beamM: spec.beamM,
        toBow,
        toStern: spec.lengthM - toBow,
        toPort,
        toStarboard: spec.beamM - toPort,
        homePort: spec.homePort.locode,
        stsArea: spec.stsArea?.name ?? null,
      };
      vessels.push(vessel);
      this.agendas.push(new Agenda(this.world, { ...spec, index }, new Rng(hashInts(this.seed, index, 0xa6e)), this.genesisMs));
    });
    this.vessels = vessels;
    this.cursorMs = options.startMs;
    this.scheduleAll();
  }

  /** 1 January of the year 30 days before `startMs`: at least a month of simulated history before any report. */
  static genesisFor(startMs: number): number {
    return Date.UTC(new Date(startMs - 30 * DAY).getUTCFullYear(), 0, 1);
  }

  private dimensions(rng: Rng, profile: VesselProfile, homePort: SimPort, ferryPartner: SimPort | null, stsArea: StsArea | null, stsSlot: number): Omit<VesselSpec, 'index'> {
    const lengthM = Math.round(rng.float(profile.lengthM[0], profile.lengthM[1]));
    return {
      profile,
      lengthM,
      beamM: Math.max(4, Math.round(lengthM * rng.float(profile.beamRatio[0], profile.beamRatio[1]))),
      designDraughtM: Math.round(rng.float(profile.draughtM[0], profile.draughtM[1]) * 10) / 10,
      serviceSpeedKn: rng.float(profile.speedKn[0], profile.speedKn[1]),
      homePort,
      ferryPartner,
      stsArea,
      stsSlot,
    };
  }

  /** The time up to which reports have been produced. */
  get cursor(): number {
    return this.cursorMs;
  }

  /** Changes reporting rates from the cursor on (backfill → live). */
  setRates(rates: EmissionRates): void {
    this.rates = rates;
    this.queue.clear();
    this.scheduleAll();
  }

  /** What vessel `index` is doing at t. Times must not go back before the vessel's current segment. */
  segmentOf(index: number, t: number): Segment {
    return this.agendas[index]!.at(t);
  }

  stateOf(index: number, t: number): VesselState {
    return stateIn(this.agendas[index]!.at(t), t, reportNoise(this.seed, index, t));
  }

  private positionInterval(index: number, state: VesselState): number {
    if (!state.moving) return this.rates.stationarySeconds * 1000;
    return (this.vessels[index]!.classB ? this.rates.classBUnderwaySeconds : this.rates.underwaySeconds) * 1000;
  }

  /** The first whole second after t on the vessel's own grid for this interval. */
  private nextOnGrid(index: number, kind: number, t: number, intervalMs: number): number {
    const offset = Math.floor(hashUnit(this.seed, index, kind) * (intervalMs / 1000)) * 1000;
    let next = Math.floor((t - offset) / intervalMs) * intervalMs + offset;
    while (next <= t) next += intervalMs;
    return next;
  }

  private scheduleAll(): void {
    const t = this.cursorMs;
    for (let index = 0; index < this.vessels.length; index++) {
      const state = this.stateOf(index, t);
      this.queue.push(this.nextOnGrid(index, KIND_POSITION, t, this.positionInterval(index, state)), index * 2 + KIND_POSITION);
      this.queue.push(this.nextOnGrid(index, KIND_STATIC, t, this.rates.staticSeconds * 1000), index * 2 + KIND_STATIC);
    }
  }

  /**
   * Produces every report with a time in (cursor, toMs], in time order, and moves the cursor.
   * Returns the number of messages (a type 5 is one message in two lines).
   */
  advanceTo(toMs: number, onLine: LineCallback): number {
    let messages = 0;
    while (this.queue.size > 0 && this.queue.peekTime() <= toMs) {
      const { time, id } = this.queue.pop();
      const index = id >> 1;
      const kind = id & 1;
      const segment = this.agendas[index]!.at(time);
      const state = stateIn(segment, time, reportNoise(this.seed, index, time));
      if (kind === KIND_POSITION) {
        if (!segment.silent) {
          this.emitPosition(index, time, state, onLine);
          messages++;
        }
        let next = this.nextOnGrid(index, KIND_POSITION, time, this.positionInterval(index, state));
        // Report promptly when the vessel starts or stops moving.
        const change = Math.ceil(segment.end / 1000) * 1000;
        if (change > time && change < next) next = change;
        this.queue.push(next, id);
      } else {
        if (!segment.silent) messages += this.emitStatic(index, time, segment, onLine);
        this.queue.push(this.nextOnGrid(index, KIND_STATIC, time, this.rates.staticSeconds * 1000), id);
      }
    }
    if (toMs > this.cursorMs) this.cursorMs = toMs;
    return messages;
  }

  private lineOptions(index: number, time: number): { timeMs: number; source: string; channel: string; sequenceId: number } {
    const h = hashInts(this.seed, index, Math.floor(time / 1000));
    return { timeMs: time, source: DEMO_SOURCE, channel: h & 1 ? 'B' : 'A', sequenceId: (h >>> 1) % 10 };
  }

  private emitPosition(index: number, time: number, state: VesselState, onLine: LineCallback): void {
    const vessel = this.vessels[index]!;
    const second = Math.floor(time / 1000) % 60;
    const radio = hashInts(this.seed, index, time, 7) % 0x40000;
    const speed = Math.round(state.sog * 10) / 10;
    const course = Math.round(state.cog * 10) / 10;
    const heading = Math.round(state.heading) % 360;
    const encoded = vessel.classB
      ? encodeClassBPosition({ mmsi: vessel.mmsi, speed, lon: state.lon, lat: state.lat, course, heading, second, radio })
      : encodePositionReport({
          type: 1,
          mmsi: vessel.mmsi,
          status: state.status,
          turn: state.moving ? 0 : null,
          speed,
          lon: state.lon,
          lat: state.lat,
          course,
          heading,
          second,
          radio,
        });
    for (const line of toSentences(encoded, this.lineOptions(index, time))) onLine(line, time);
  }

  private emitStatic(index: number, time: number, segment: Segment, onLine: LineCallback): number {
    const vessel = this.vessels[index]!;
    const options = this.lineOptions(index, time);
    const dims = { toBow: vessel.toBow, toStern: vessel.toStern, toPort: vessel.toPort, toStarboard: vessel.toStarboard };
    if (vessel.classB) {
      for (const line of toSentences(encodeStaticPartA({ mmsi: vessel.mmsi, shipname: vessel.name }), options)) onLine(line, time);
      const partB = encodeStaticPartB({ mmsi: vessel.mmsi, shiptype: vessel.shipType, vendorid: 'SIM', callsign: vessel.callsign, ...dims });
      for (const line of toSentences(partB, options)) onLine(line, time);
      return 2;
    }
    const { voyage } = segment;
    const eta = voyage.etaMs === null ? null : new Date(voyage.etaMs);
    const encoded = encodeStaticVoyage({
      mmsi: vessel.mmsi,
      imo: vessel.imo ?? 0,
      callsign: vessel.callsign,
      shipname: vessel.name,
      shiptype: vessel.shipType,
      ...dims,
      epfd: 1,
      eta: eta === null ? { month: null, day: null, hour: null, minute: null } : { month: eta.getUTCMonth() + 1, day: eta.getUTCDate(), hour: eta.getUTCHours(), minute: eta.getUTCMinutes() },
      draught: voyage.draughtM,
      destination: voyage.destination,
    });
    for (const line of toSentences(encoded, options)) onLine(line, time);
    return 1;
  }
}
