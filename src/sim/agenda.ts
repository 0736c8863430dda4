/**
 * What each vessel does over time: a sequence of segments (moored, at anchor, sailing a path,
 * circling) planned one port call at a time from the vessel's own seeded generator. Position,
 * speed and course at any instant are a pure function of the segment and the time.
 */
import { HOUR, MINUTE } from '../platform/clock.js';
import { destinationPoint, distanceM, METRES_PER_NM, type LatLon } from '../geo/distance.js';
import { landIndex } from '../geo/land.js';
import { Polyline } from '../geo/polyline.js';
import { hashUnit, type Rng } from './random.js';
import type { VesselProfile } from './vessel-types.js';
import { BULK_PORTS, LNG_EXPORT_PORTS, LNG_IMPORT_PORTS, OIL_PORTS, type RouteVariant, type SimPort, type SimWorld, type StsArea } from './world.js';

/** AIS navigation status codes used by the simulator. */
export const NAV_STATUS = { underWay: 0, atAnchor: 1, moored: 5, fishing: 7 } as const;

const KNOT_M_PER_MS = METRES_PER_NM / HOUR;

export interface VoyageInfo {
  /** AIS destination: the UN/LOCODE of the next port. */
  destination: string;
  /** Expected arrival (at the anchorage or alongside), epoch ms; null when not announced. */
  etaMs: number | null;
  draughtM: number;
  /** The sea-lane route taken, when it is not the shortest one (route choice around a passage). */
  route?: RouteVariant;
}

interface SegmentBase {
  start: number;
  end: number;
  status: number;
  voyage: VoyageInfo;
  /** The vessel transmits nothing during this segment (a labelled vessel going dark). */
  silent?: true;
}

export interface StationarySegment extends SegmentBase {
  kind: 'moored' | 'anchored';
  at: LatLon;
  heading: number;
}

export interface SailingSegment extends SegmentBase {
  kind: 'sailing';
  line: () => Polyline;
  fromM: number;
  toM: number;
}

/** Slow circles: fishing, a tug standing by, a tanker drifting or lying alongside another. */
export interface CirclingSegment extends SegmentBase {
  kind: 'circling';
  center: LatLon;
  radiusM: number;
  periodMs: number;
  /** Time at which the angle is `angle0` (degrees from north, clockwise motion). */
  phaseOrigin: number;
  angle0: number;
}

export type Segment = StationarySegment | SailingSegment | CirclingSegment;

export interface VesselState {
  lat: number;
  lon: number;
  /** Knots. */
  sog: number;
  cog: number;
  heading: number;
  status: number;
  moving: boolean;
}

/** Where a vessel is at time t within a segment. `noise` ∈ [0,1) values make reports less perfect. */
export function stateIn(segment: Segment, t: number, noise: readonly [number, number, number]): VesselState {
  switch (segment.kind) {
    case 'moored':
      return { lat: segment.at.lat, lon: segment.at.lon, sog: 0, cog: Math.floor(noise[0] * 3600) / 10, heading: segment.heading, status: segment.status, moving: false };
    case 'anchored': {
      const swing = 25 * Math.sin((2 * Math.PI * t) / (6.2 * HOUR));
      return {
        lat: segment.at.lat,
        lon: segment.at.lon,
        sog: Math.round(noise[0] * 2) / 10,
        cog: Math.floor(noise[1] * 3600) / 10,
        heading: (segment.heading + swing + 360) % 360,
        status: segment.status,
        moving: false,
      };
    }
    case 'sailing': {
      const duration = segment.end - segment.start;
      const fraction = duration > 0 ? Math.min(1, Math.max(0, (t - segment.start) / duration)) : 1;
      const p = segment.line().at(segment.fromM + fraction * (segment.toM - segment.fromM));
      const speedKn = duration > 0 ? (segment.toM - segment.fromM) / duration / KNOT_M_PER_MS : 0;
      const cog = (p.bearing + (noise[1] - 0.5) * 3 + 360) % 360;
      return {
        lat: p.lat,
        lon: p.lon,
        sog: Math.max(0, speedKn + (noise[0] - 0.5) * 0.4),
        cog,
        heading: (cog + (noise[2] - 0.5) * 4 + 360) % 360,
        status: segment.status,
        moving: true,
      };
    }
    case 'circling': {
      const angle = segment.angle0 + (360 * (t - segment.phaseOrigin)) / segment.periodMs;
      const p = destinationPoint(segment.center.lat, segment.center.lon, ((angle % 360) + 360) % 360, segment.radiusM);
      const speedKn = (2 * Math.PI * segment.radiusM) / segment.periodMs / KNOT_M_PER_MS;
      const course = (((angle + 90) % 360) + 360) % 360;
      return {
        lat: p.lat,
        lon: p.lon,
        sog: Math.max(0, speedKn + (noise[0] - 0.5) * 0.2),
        cog: course,
        heading: (course + (noise[2] - 0.5) * 4 + 360) % 360,
        status: segment.status,
        moving: speedKn >= 1,
      };
    }
  }
}

export interface VesselSpec {
  index: number;
  profile: VesselProfile;
  lengthM: number;
  beamM: number;
  designDraughtM: number;
  serviceSpeedKn: number;
  homePort: SimPort;
  /** Ferries shuttle between their home port and this one. */
  ferryPartner: SimPort | null;
  stsArea: StsArea | null;
  /** A shuttle's turn in its area's meeting timetable (0–2). */
  stsSlot: number;
}

/** STS drift circle shared by the storage tanker and the shuttles alongside it. */
const STS_DRIFT_RADIUS_M = 150;
const STS_ALONGSIDE_GAP_M = 60;
const STS_DRIFT_PERIOD_MS = 12 * HOUR;
/** Shuttles per storage tanker, and the spacing of their turns alongside (a meeting every 16 h). */
export const STS_SHUTTLES = 3;
const STS_SLOT_MS = 16 * HOUR;

export class Agenda {
  private readonly queue: Segment[] = [];
  private port: SimPort;
  /** Where the vessel lies at the end of what is planned: the next departure starts here. */
  private here: LatLon;
  private laden: boolean;

  constructor(
    private readonly world: SimWorld,
    readonly spec: VesselSpec,
    private readonly rng: Rng,
    private readonly genesisMs: number,
  ) {
    this.port = spec.homePort;
    this.here = { lat: spec.homePort.lat, lon: spec.homePort.lon };
    this.laden = rng.chance(0.5);
    this.queue.push(...this.initial());
  }

  /** The segment in progress at t (t must not go backwards past the current segment). */
  at(t: number): Segment {
    for (;;) {
      while (this.queue.length > 1 && this.queue[0]!.end <= t) this.queue.shift();
      const head = this.queue[0]!;
      if (head.end > t) return head;
      this.queue.push(...this.plan(head));
    }
  }

  private hours(range: readonly [number, number]): number {
    return Math.round(this.rng.float(range[0], range[1]) * HOUR);
  }

  /** Ferries turn round in one or two hours, cruise ships stay the day, cargo ships per their kind. */
  private berthHours(): readonly [number, number] {
    if (this.spec.profile.kind !== 'passenger') return this.spec.profile.berthHours;
    return this.spec.ferryPartner !== null ? [0.75, 2] : [7, 12];
  }

  private draught(): number {
    const { profile, designDraughtM } = this.spec;
    const factor = ['tanker', 'bulk', 'lng', 'sts_shuttle'].includes(profile.kind) ? (this.laden ? this.rng.float(0.93, 1) : this.rng.float(0.55, 0.65)) : this.rng.float(0.78, 0.95);
    return Math.round(designDraughtM * factor * 10) / 10;
  }

  /** A berth at the port, which becomes where the vessel lies. */
  private berthSpot(port: SimPort): LatLon {
    this.here = destinationPoint(port.lat, port.lon, this.rng.float(0, 360), this.rng.float(0, 150));
    return this.here;
  }

  /** Leaving the berth: from where the vessel lies out along the port's channel to its anchorage. */
  private outbound(port: SimPort): LatLon[] {
    return [this.here, ...port.inbound.reversed().points.slice(1)];
  }

  private anchorSpot(port: { anchorage: LatLon }): LatLon {
    return destinationPoint(port.anchorage.lat, port.anchorage.lon, this.rng.float(0, 360), this.rng.float(200, 1800));
  }

  private initial(): Segment[] {
    const { profile } = this.spec;
    const start = this.genesisMs - this.hours([0, Math.max(1, profile.berthHours[1])]);
    if (profile.kind === 'sts_storage') return [this.stsDrift(this.genesisMs - HOUR, false)];
    const end = this.genesisMs + this.hours([0.5, Math.max(1, profile.berthHours[1])]);
    const voyage = { destination: this.port.locode, etaMs: null, draughtM: this.draught() };
    return [{ kind: 'moored', start, end, status: NAV_STATUS.moored, voyage, at: this.berthSpot(this.port), heading: this.rng.int(0, 359) }];
  }

  private plan(previous: Segment): Segment[] {
    const start = previous.end;
    switch (this.spec.profile.kind) {
      case 'tug':
        return this.tugCycle(start);
      case 'fishing':
        return this.fishingTrip(start);
      case 'sts_storage':
        return [this.stsDrift(start, false)];
      case 'sts_shuttle':
        return this.shuttleCycle(previous);
      default:
        return this.portCall(start, this.nextPort());
    }
  }

  private nextPort(): SimPort {
    const { world, rng, port } = this;
    const { profile, ferryPartner, homePort } = this.spec;
    if (ferryPartner !== null) return port.index === homePort.index ? ferryPartner : homePort;
    const others = world.ports.filter((p) => p.index !== port.index && Number.isFinite(world.distance(port.node, p.node)));
    // Most trades are regional; long hauls stay common enough to cross oceans.
    const sizeWeight = (p: SimPort) => (p.size === 'large' ? 3 : 1) / (1 + (world.distance(port.node, p.node) / (2500 * METRES_PER_NM)) ** 2);
    const among = (locodes: readonly string[]) => others.filter((p) => locodes.includes(p.locode));
    switch (profile.kind) {
      case 'tanker':
        return OIL_PORTS.includes(port.locode) ? rng.weighted(others, sizeWeight) : rng.pick(among(OIL_PORTS));
      case 'lng':
        return LNG_EXPORT_PORTS.includes(port.locode) ? rng.pick(among(LNG_IMPORT_PORTS)) : rng.pick(among(LNG_EXPORT_PORTS));
      case 'bulk':
        return rng.weighted(others, (p) => (BULK_PORTS.includes(p.locode) ? 6 : p.size === 'large' ? 1 : 0) * sizeWeight(p));
      case 'general': {
        const near = others.filter((p) => world.distance(port.node, p.node) < 2500 * METRES_PER_NM);
        return rng.weighted(near.length > 0 ? near : others, sizeWeight);
      }
      case 'passenger': {
        const near = others.filter((p) => world.distance(port.node, p.node) < 900 * METRES_PER_NM);
        return rng.pick(near.length > 0 ? near : others);
      }
      default:
        return rng.weighted(others, sizeWeight);
    }
  }

  /** Shortest route, unless this voyage takes the long way round a passage the shortest one uses. */
  private routeVariant(from: number, to: number): RouteVariant {
    const { world, rng } = this;
    const { profile, lengthM } = this.spec;
    const detour = (variant: RouteVariant, chance: number) => chance > 0 && world.shortestPasses(from, to, variant) && rng.chance(chance) && Number.isFinite(world.distance(from, to, variant));
    if (detour('avoid_suez', profile.avoidSuezChance)) return 'avoid_suez';
    if (detour('avoid_panama', profile.avoidSuezChance / 3)) return 'avoid_panama';
    if (detour('avoid_malacca', profile.kind === 'tanker' && lengthM >= 300 ? 0.6 : 0)) return 'avoid_malacca';
    return 'shortest';
  }

  /**
   * Sail `line` from `start`: a harbour part at harbour speed, the open sea at service speed,
   * the last miles of the approach slower.
   */
  private sail(line: () => Polyline, lengthM: number, harbourM: number, start: number, voyage: VoyageInfo, approachKn: number): SailingSegment[] {
    const { rng } = this;
    const seaKn = this.spec.serviceSpeedKn * rng.float(0.88, 1.03);
    const harbourKn = Math.min(seaKn, rng.float(6, 8));
    const approachM = Math.min(12 * METRES_PER_NM, 0.3 * Math.max(0, lengthM - harbourM));
    const legs: [number, number, number][] = [
      [0, harbourM, harbourKn],
      [harbourM, lengthM - approachM, seaKn],
      [lengthM - approachM, lengthM, Math.min(seaKn, approachKn)],
    ];
    const segments: SailingSegment[] = [];
    let t = start;
    for (const [fromM, toM, kn] of legs) {
      if (toM - fromM < 1) continue;
      const end = t + Math.max(MINUTE, Math.round((toM - fromM) / (kn * KNOT_M_PER_MS)));
      segments.push({ kind: 'sailing', start: t, end, status: NAV_STATUS.underWay, voyage, line, fromM, toM });
      t = end;
    }
    for (const segment of segments) segment.voyage.etaMs = t;
    return segments;
  }

  private arriveAndBerth(start: number, destination: SimPort, spot: LatLon, anchorMs: number, voyage: VoyageInfo): Segment[] {
    const segments: Segment[] = [];
    let t = start;
    if (anchorMs > 0) {
      segments.push({ kind: 'anchored', start: t, end: t + anchorMs, status: NAV_STATUS.atAnchor, voyage, at: spot, heading: this.rng.int(0, 359) });
      t += anchorMs;
    }
    const berth = this.berthSpot(destination);
    const inbound = new Polyline([spot, ...destination.inbound.points.slice(1, -1), berth]);
    const inKn = this.rng.float(5, 7);
    const inEnd = t + Math.max(MINUTE, Math.round(inbound.lengthM / (inKn * KNOT_M_PER_MS)));
    segments.push({ kind: 'sailing', start: t, end: inEnd, status: NAV_STATUS.underWay, voyage, line: () => inbound, fromM: 0, toM: inbound.lengthM });
    const berthEnd = inEnd + this.hours(this.berthHours());
    segments.push({ kind: 'moored', start: inEnd, end: berthEnd, status: NAV_STATUS.moored, voyage, at: berth, heading: this.rng.int(0, 359) });
    return segments;
  }

  /** Berth → sea lanes → anchorage (maybe a wait) → berth at the next port. */
  private portCall(start: number, to: SimPort): Segment[] {
    const { world, rng } = this;
    const from = this.port;
    const variant = this.routeVariant(from.node, to.node);
    const spot = this.anchorSpot(to);
    const sea = world.passage(from, to, variant);
    const departure = this.outbound(from);
    const lengthM = new Polyline(departure).lengthM + sea.lengthM + distanceM(to.anchorage.lat, to.anchorage.lon, spot.lat, spot.lon);
    let cached: Polyline | null = null;
    const line = () => (cached ??= new Polyline([...departure, ...sea.points, spot]));
    this.laden = !this.laden;
    const voyage: VoyageInfo = { destination: to.locode, etaMs: null, draughtM: this.draught(), ...(variant === 'shortest' ? {} : { route: variant }) };
    let sailing: Segment[] = this.sail(line, lengthM, from.inbound.lengthM, start, voyage, 10);
    if (this.spec.profile.kind === 'loiterer') sailing = this.loiterAtSea(sailing as SailingSegment[]);
    else if (this.spec.profile.kind === 'dark') sailing = this.goDark(sailing as SailingSegment[]);
    const arrival = sailing[sailing.length - 1]?.end ?? start;
    const { anchorChance, anchorHours } = this.spec.profile;
    const anchorMs = anchorChance > 0 && rng.chance(anchorChance) ? this.hours(anchorHours) : 0;
    this.port = to;
    return [...sailing, ...this.arriveAndBerth(arrival, to, spot, anchorMs, voyage)];
  }

  /** The open-sea leg of a passage (the longest of the legs `sail` makes), with its index. */
  private seaLeg(legs: SailingSegment[]): { leg: SailingSegment; at: number } | null {
    let at = -1;
    legs.forEach((leg, i) => {
      if (at < 0 || leg.toM - leg.fromM > legs[at]!.toM - legs[at]!.fromM) at = i;
    });
    return at < 0 ? null : { leg: legs[at]!, at };
  }

  /** The leg cut in two at time t (positions along the line in proportion). */
  private static split(leg: SailingSegment, t: number): [SailingSegment, SailingSegment] {
    const m = leg.fromM + ((t - leg.start) / (leg.end - leg.start)) * (leg.toM - leg.fromM);
    return [
      { ...leg, end: t, toM: m },
      { ...leg, start: t, fromM: m },
    ];
  }

  /**
   * A loiterer stops on the open-sea leg, once in every 36 hours of it, for 5 to 12 hours, drifting at
   * 0.3 kn in a 300 m circle where the leg lies 30 nm or more from Natural Earth shore (where it does
   * not, it sails on).
   */
  private loiterAtSea(legs: SailingSegment[]): Segment[] {
    const sea = this.seaLeg(legs);
    if (!sea || sea.leg.toM - sea.leg.fromM < 100 * METRES_PER_NM) return legs;
    const { leg, at } = sea;
    const land = landIndex();
    const offshoreKm = 30 * (METRES_PER_NM / 1000);
    const stops = Math.max(1, Math.floor((leg.end - leg.start) / (36 * HOUR)));
    const out: Segment[] = [...legs.slice(0, at)];
    let rest = leg;
    let shift = 0;
    for (let i = 0; i < stops; i++) {
      const hours = this.hours([5, 12]);
      const stopAt = leg.start + Math.round(((i + 0.5) / stops) * (leg.end - leg.start)) + shift;
      const [before, after] = Agenda.split(rest, stopAt);
      const point = leg.line().at(before.toM);
      if (land.isLand(point.lon, point.lat) || land.coastDistanceKm(point.lon, point.lat, offshoreKm) !== Infinity) continue;
      out.push(before, this.circle(point, 300, 0.3, stopAt, stopAt + hours, NAV_STATUS.underWay, leg.voyage));
      rest = { ...after, start: after.start + hours, end: after.end + hours };
      shift += hours;
    }
    const later = legs.slice(at + 1).map((l) => ({ ...l, start: l.start + shift, end: l.end + shift }));
    out.push(rest, ...later);
    leg.voyage.etaMs = out[out.length - 1]!.end;
    return out;
  }

  /** A dark vessel goes silent for 7 to 14 hours, once in every 36 hours of the open-sea leg (a leg of 11 hours or more), sailing on. */
  private goDark(legs: SailingSegment[]): Segment[] {
    const sea = this.seaLeg(legs);
    if (!sea || sea.leg.end - sea.leg.start < 11 * HOUR) return legs;
    const { leg, at } = sea;
    const silences = Math.max(1, Math.floor((leg.end - leg.start) / (36 * HOUR)));
    const out: Segment[] = [...legs.slice(0, at)];
    let rest = leg;
    for (let i = 0; i < silences; i++) {
      const silence = Math.min(this.hours([7, 14]), leg.end - leg.start - 4 * HOUR);
      const from = leg.start + Math.round(((i + 0.5) / silences) * (leg.end - leg.start) - silence / 2);
      const [before, silent] = Agenda.split(rest, from);
      const [dark, after] = Agenda.split(silent, from + silence);
      out.push(before, { ...dark, silent: true });
      rest = after;
    }
    out.push(rest, ...legs.slice(at + 1));
    return out;
  }

  /** Moored → out to the anchorage → standing by a ship → back alongside escorting it. */
  private tugCycle(start: number): Segment[] {
    const { rng } = this;
    const port = this.spec.homePort;
    const voyage: VoyageInfo = { destination: port.locode, etaMs: null, draughtM: this.spec.designDraughtM };
    const out = new Polyline(this.outbound(port));
    const outKn = rng.float(9, 12);
    const outEnd = start + Math.max(MINUTE, Math.round(out.lengthM / (outKn * KNOT_M_PER_MS)));
    const standBy = this.circle(port.anchorage, rng.float(200, 500), rng.float(1.5, 3), outEnd, outEnd + this.hours([0.5, 2]), NAV_STATUS.underWay, voyage);
    const berth = this.berthSpot(port);
    const back = new Polyline([stateIn(standBy, standBy.end, [0.5, 0.5, 0.5]), ...port.inbound.points.slice(1, -1), berth]);
    const backKn = rng.float(5, 7);
    const backEnd = standBy.end + Math.max(MINUTE, Math.round(back.lengthM / (backKn * KNOT_M_PER_MS)));
    const moorEnd = backEnd + this.hours(this.spec.profile.berthHours);
    return [
      { kind: 'sailing', start, end: outEnd, status: NAV_STATUS.underWay, voyage, line: () => out, fromM: 0, toM: out.lengthM },
      standBy,
      { kind: 'sailing', start: standBy.end, end: backEnd, status: NAV_STATUS.underWay, voyage, line: () => back, fromM: 0, toM: back.lengthM },
      { kind: 'moored', start: backEnd, end: moorEnd, status: NAV_STATUS.moored, voyage, at: berth, heading: rng.int(0, 359) },
    ];
  }

  /**
   * A circle through `entry` (the vessel arrives there and starts circling), of the given radius
   * and speed.
   */
  private circle(entry: LatLon, radiusM: number, speedKn: number, start: number, end: number, status: number, voyage: VoyageInfo): CirclingSegment {
    const bearing = this.rng.float(0, 360);
    const center = destinationPoint(entry.lat, entry.lon, bearing, radiusM);
    const periodMs = Math.round((2 * Math.PI * radiusM) / (speedKn * KNOT_M_PER_MS));
    return { kind: 'circling', start, end, status, voyage, center, radiusM, periodMs, phaseOrigin: start, angle0: (bearing + 180) % 360 };
  }

  /** Out to a fishing ground 40–120 nm away, fish for hours, come back. */
  private fishingTrip(start: number): Segment[] {
    const { world, rng } = this;
    const port = this.spec.homePort;
    const ground = rng.pick(world.fishingGroundsOf(port));
    const voyage: VoyageInfo = { destination: port.locode, etaMs: null, draughtM: this.spec.designDraughtM };
    const outLine = new Polyline([...this.outbound(port), ...world.passage(port, world.nodePlace(ground)).points]);
    const out = this.sail(() => outLine, outLine.lengthM, port.inbound.lengthM, start, { ...voyage }, 8);
    const fishStart = out[out.length - 1]!.end;
    const fishing = this.circle(outLine.end, rng.float(1500, 3000), rng.float(3, 4), fishStart, fishStart + this.hours([6, 20]), NAV_STATUS.fishing, voyage);
    const berth = this.berthSpot(port);
    const backLine = new Polyline([stateIn(fishing, fishing.end, [0.5, 0.5, 0.5]), ...outLine.reversed().points.slice(1, -1), berth]);
    const back = this.sail(() => backLine, backLine.lengthM, 0, fishing.end, { ...voyage }, 7);
    const backEnd = back[back.length - 1]!.end;
    const moored: StationarySegment = {
      kind: 'moored',
      start: backEnd,
      end: backEnd + this.hours(this.spec.profile.berthHours),
      status: NAV_STATUS.moored,
      voyage,
      at: berth,
      heading: rng.int(0, 359),
    };
    return [...out, fishing, ...back, moored];
  }

  /** The storage tanker's (or, alongside, the shuttle's) slow drift at its STS area. */
  private stsDrift(start: number, alongside: boolean, end = start + 30 * 24 * HOUR): CirclingSegment {
    const area = this.spec.stsArea!;
    return {
      kind: 'circling',
      start,
      end,
      status: NAV_STATUS.underWay,
      voyage: { destination: area.code, etaMs: null, draughtM: this.draught() },
      center: { lat: area.lat, lon: area.lon },
      radiusM: STS_DRIFT_RADIUS_M + (alongside ? STS_ALONGSIDE_GAP_M : 0),
      periodMs: STS_DRIFT_PERIOD_MS,
      phaseOrigin: this.genesisMs,
      angle0: 0,
    };
  }

  /** The first meeting slot of this shuttle at or after t: slots every STS_SLOT_MS, shuttles taking turns. */
  private nextStsSlot(t: number): number {
    const cycle = STS_SHUTTLES * STS_SLOT_MS;
    const first = this.genesisMs + this.spec.stsSlot * STS_SLOT_MS;
    return first + Math.max(0, Math.ceil((t - first) / cycle)) * cycle;
  }

  /** Port → STS area → alongside the storage tanker for hours → a port of the area, and again. */
  private shuttleCycle(previous: Segment): Segment[] {
    const { world, rng } = this;
    const start = previous.end;
    const area = this.spec.stsArea!;
    const from = this.port;
    const departure = this.outbound(from);
    const toArea = world.passage(from, area);
    // The line ends where the storage tanker's side will be at the arrival time, set once that is known.
    let alongsideAt: LatLon = { lat: area.lat, lon: area.lon };
    let outCached: Polyline | null = null;
    const outLine = () => (outCached ??= new Polyline([...departure, ...toArea.points, alongsideAt]));
    this.laden = false;
    const outVoyage: VoyageInfo = { destination: area.code, etaMs: null, draughtM: this.draught() };
    const atArea = new Polyline(departure).lengthM + toArea.lengthM;
    const out = this.sail(outLine, atArea, new Polyline(departure).lengthM, start, outVoyage, 6);
    // Keep the area's timetable: stay alongside the berth longer so as to arrive at this shuttle's next slot.
    const slot = this.nextStsSlot(out[out.length - 1]!.end);
    const delay = slot - out[out.length - 1]!.end;
    if (delay > 0 && previous.kind === 'moored') {
      previous.end += delay;
      for (const segment of out) {
        segment.start += delay;
        segment.end += delay;
      }
      outVoyage.etaMs = slot;
    }
    const last = out[out.length - 1]!;
    const alongsideStart = last.end;
    const alongside = this.stsDrift(alongsideStart, true, alongsideStart + this.hours([6, 10]));
    alongsideAt = stateIn(alongside, alongsideStart, [0.5, 0.5, 0.5]);
    last.toM = atArea + distanceM(area.lat, area.lon, alongsideAt.lat, alongsideAt.lon);
    const to = world.port(rng.pick(area.ports));
    const spot = this.anchorSpot(to);
    const fromArea = world.passage(area, to);
    const backM = fromArea.lengthM + distanceM(to.anchorage.lat, to.anchorage.lon, spot.lat, spot.lon);
    let backCached: Polyline | null = null;
    const leaving = stateIn(alongside, alongside.end, [0.5, 0.5, 0.5]);
    const backLine = () => (backCached ??= new Polyline([leaving, ...fromArea.points, spot]));
    this.laden = true;
    const backVoyage: VoyageInfo = { destination: to.locode, etaMs: null, draughtM: this.draught() };
    const back = this.sail(backLine, backM + distanceM(leaving.lat, leaving.lon, area.lat, area.lon), 0, alongside.end, backVoyage, 9);
    const arrival = back[back.length - 1]!.end;
    const anchorMs = rng.chance(this.spec.profile.anchorChance) ? this.hours(this.spec.profile.anchorHours) : 0;
    this.port = to;
    return [...out, alongside, ...back, ...this.arriveAndBerth(arrival, to, spot, anchorMs, backVoyage)];
  }
}

/** Per-report jitter that depends only on the vessel, the time and the seed. */
export function reportNoise(seed: number, vessel: number, t: number): [number, number, number] {
  const s = Math.floor(t / 1000);
  return [hashUnit(seed, vessel, s, 1), hashUnit(seed, vessel, s, 2), hashUnit(seed, vessel, s, 3)];
}
