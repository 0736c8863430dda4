import { randomBytes } from 'node:crypto';
import { isValidImo } from '../ais/imo.js';
import { flagForMmsi } from '../ais/mid.js';
import type { DecodedMessage } from '../ais/index.js';
import type { StatusReporter } from '../observability/status.js';
import type { Bus } from '../bus/bus.js';
import { iso, type Clock } from '../platform/clock.js';
import { jsonText } from '../store/dialect.js';
import { convertMessage } from './convert.js';
import type { FleetRepo, HistoryInsert, PositionWrite } from './fleet-repo.js';
import { VOYAGE_FIELDS } from './fleet-reads.js';
import { identityOf, rowFromState, stateFromRow, storedPosition } from './fleet-rows.js';
import { offerLatestFix, type VesselState } from './latest-fix.js';
import { QUALITY_FLAGS, checkQuality, isUsable, type QualityFlag } from './quality.js';
import { POSITIONS_TOPIC, VESSELS_TOPIC, type AisSink, type ObservationMeta, type PositionReport, type PositionsEvent, type StaticReport, type StoredPosition, type VesselsEvent } from './types.js';

export { storedFromRow } from './fleet-rows.js';
export type { LatestFix, VesselState } from './latest-fix.js';
export { MAX_PLAUSIBLE_SPEED_KN, QUALITY_FLAGS, type QualityFlag } from './quality.js';

/** Feed names remembered per vessel. */
const MAX_SOURCES = 8;
const PUBLISH_CHUNK = 500;

export const REJECT_REASONS = ['invalid_mmsi', 'no_position', 'invalid_time', 'store_error'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

interface BufferedPosition {
  state: VesselState;
  row: PositionWrite;
  flags: string[];
}

export interface FleetStats {
  vessels: number;
  positions_stored: number;
  positions_duplicate: number;
  positions_buffered: number;
  identity_changes: number;
  rejected: Record<RejectReason, number>;
  quality_flags: Record<QualityFlag, number>;
  ignored_messages: { non_vessel_station: number; undecodable: number; other_type: number };
  invalid_imo: number;
  last_observation_at: string | null;
  last_flush_at: string | null;
}

export interface FleetServiceDeps {
  repo: FleetRepo;
  bus: Bus;
  clock: Clock;
  onError?: (err: unknown, context: string) => void;
  /** Positions buffered before a flush starts on its own. */
  batchSize?: number;
  /** Interval of background flushing (startFlushing). */
  flushIntervalMs?: number;
}

const newVslId = () => 'vsl_' + randomBytes(8).toString('hex');

function zero<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

const validMmsi = (mmsi: number) => Number.isInteger(mmsi) && mmsi >= 100_000_000 && mmsi <= 999_999_999;

/**
 * The fleet's write side and live state. Accepts observations synchronously, keeps the merged
 * identity and latest usable fix of every vessel in memory, writes positions, identities and
 * identity history in batches, and publishes what was stored on the bus.
 */
export class FleetService implements AisSink {
  /** Identifies this process's events on the bus. */
  readonly instanceId = randomBytes(6).toString('hex');
  private readonly byMmsi = new Map<number, VesselState>();
  private readonly byVslId = new Map<string, VesselState>();
  private readonly byImo = new Map<number, VesselState>();
  private positionBuffer: BufferedPosition[] = [];
  private historyBuffer: Array<HistoryInsert & { mmsi: number }> = [];
  private dirty = new Set<VesselState>();
  private flushChain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribers: Array<() => void> = [];
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;

  private positionsStored = 0;
  private positionsDuplicate = 0;
  private identityChanges = 0;
  private invalidImo = 0;
  private lastObservationAt: number | null = null;
  private lastFlushAt: number | null = null;
  private headSeq = 0;
  private readonly rejected = zero(REJECT_REASONS);
  private readonly flagged = zero(QUALITY_FLAGS);
  private readonly ignored = { non_vessel_station: 0, undecodable: 0, other_type: 0 };

  constructor(private readonly deps: FleetServiceDeps) {
    this.batchSize = deps.batchSize ?? 2000;
    this.flushIntervalMs = deps.flushIntervalMs ?? 1000;
  }

  /** Rebuilds live state from the store and follows other processes' writes on the bus. */
  async start(): Promise<void> {
    for (const row of await this.deps.repo.loadVessels()) this.index(stateFromRow(row));
    const totals = await this.deps.repo.positionTotals();
    this.positionsStored = totals.count;
    this.headSeq = totals.headSeq;
    for (const s of this.byMmsi.values()) {
      if (this.lastObservationAt === null || s.lastSeenAt > this.lastObservationAt) this.lastObservationAt = s.lastSeenAt;
    }
    const fromElsewhere = (payload: unknown) => (payload as { origin?: unknown } | null)?.origin !== this.instanceId;
    this.unsubscribers.push(
      this.deps.bus.subscribe(POSITIONS_TOPIC, (payload) => this.applyRemotePositions(payload as PositionsEvent), fromElsewhere),
      this.deps.bus.subscribe(VESSELS_TOPIC, (payload) => this.applyRemoteVessels(payload as VesselsEvent), fromElsewhere),
    );
    await this.deps.bus.ready();
  }

  /** Flushes every flushIntervalMs (the serve and ingest processes). */
  startFlushing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.positionBuffer.length > 0 || this.dirty.size > 0) this.flush().catch(() => {});
    }, this.flushIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    await this.flush().catch(() => {});
  }

  // ---- write side (AisSink) ----

  acceptMessage(message: DecodedMessage, meta: ObservationMeta): void {
    const conversion = convertMessage(message, meta);
    switch (conversion.kind) {
      case 'position':
        this.acceptPosition(conversion.position);
        if (conversion.identity) this.acceptStatic(conversion.identity);
        return;
      case 'static':
        this.acceptStatic(conversion.identity);
        return;
      case 'non_vessel':
        this.ignored.non_vessel_station++;
        return;
      case 'undecodable':
        this.ignored.undecodable++;
        return;
      default:
        this.ignored.other_type++;
    }
  }

  acceptPosition(report: PositionReport): void {
    if (!validMmsi(report.mmsi)) return void this.rejected.invalid_mmsi++;
    if (!Number.isFinite(report.lat) || !Number.isFinite(report.lon)) return void this.rejected.no_position++;
    if (!Number.isFinite(report.observedAt)) return void this.rejected.invalid_time++;
    const state = this.stateFor(report.mmsi, report);
    const { flags, jumpCandidate } = checkQuality(state, report, this.deps.clock.now());
    if (jumpCandidate !== null) state.jumpCandidate = jumpCandidate;
    for (const flag of flags) this.flagged[flag]++;
    const usable = isUsable(flags);
    if (usable && offerLatestFix(state, report, flags)) state.jumpCandidate = null;
    this.positionBuffer.push({
      state,
      flags,
      row: {
        mmsi: state.mmsi,
        vsl_id: state.vslId,
        observed_at: report.observedAt,
        received_at: report.receivedAt,
        lat: report.lat,
        lon: report.lon,
        sog: report.sog,
        cog: report.cog,
        heading: report.heading,
        nav_status: report.navStatus,
        msg_type: report.msgType,
        source: report.source,
        simulated: report.simulated ? 1 : 0,
        usable: usable ? 1 : 0,
        quality_flags: flags.length === 0 ? '[]' : jsonText(flags),
      },
    });
    if (this.positionBuffer.length >= this.batchSize) this.flush().catch(() => {});
  }

  acceptStatic(report: StaticReport): void {
    if (!validMmsi(report.mmsi)) return void this.rejected.invalid_mmsi++;
    if (!Number.isFinite(report.observedAt)) return void this.rejected.invalid_time++;
    const state = this.stateFor(report.mmsi, report);
    let imo = report.imo;
    if (imo !== null && !isValidImo(imo)) {
      this.invalidImo++;
      imo = null;
    }
    // An older report (replay out of order) only fills what is still unknown.
    const current = state.identityObservedAt === null || report.observedAt >= state.identityObservedAt;
    const set = <K extends 'imo' | 'name' | 'callsign' | 'shipType' | 'lengthM' | 'beamM' | 'draughtM' | 'destination' | 'eta'>(key: K, value: VesselState[K] | null, historyField: string | null) => {
      if (value === null || value === state[key]) return;
      const old = state[key];
      if (old !== null && !current) return;
      // a voyage field is recorded from its first value on: its value at any past moment can then be told (null before it)
      const voyage = historyField !== null && (VOYAGE_FIELDS as readonly string[]).includes(historyField);
      if (historyField !== null && (old !== null || voyage)) {
        this.historyBuffer.push({
          mmsi: state.mmsi,
          vsl_id: state.vslId,
          field: historyField,
          old_value: old === null ? null : String(old),
          new_value: String(value),
          changed_at: report.observedAt,
          source: report.source,
        });
        if (!voyage) this.identityChanges++;
      }
      if (key === 'imo') {
        if (old !== null && this.byImo.get(old as number) === state) this.byImo.delete(old as number);
        this.byImo.set(value as number, state);
      }
      state[key] = value;
    };
    set('imo', imo, 'imo');
    set('name', report.name, 'name');
    set('callsign', report.callsign, 'callsign');
    set('shipType', report.shipType, 'ship_type');
    set('lengthM', report.lengthM, null);
    set('beamM', report.beamM, null);
    // voyage changes are kept so that a caller under the delay sees the voyage as it was (vessels/entitlements.ts)
    set('draughtM', report.draughtM, 'draught_m');
    set('destination', report.destination, 'destination');
    set('eta', report.eta, 'eta');
    if (current) state.identityObservedAt = report.observedAt;
    this.dirty.add(state);
  }

  /** Resolves when everything accepted so far is stored and published. */
  flush(): Promise<void> {
    const run = this.flushChain.then(() => this.writeBatch());
    this.flushChain = run.catch(() => {});
    return run;
  }

  // ---- read side ----

  byVesselId(vslId: string): VesselState | undefined {
    return this.byVslId.get(vslId);
  }
  byMmsiNumber(mmsi: number): VesselState | undefined {
    return this.byMmsi.get(mmsi);
  }
  byImoNumber(imo: number): VesselState | undefined {
    return this.byImo.get(imo);
  }
  /** Every known vessel (live state; do not modify). */
  vessels(): IterableIterator<VesselState> {
    return this.byMmsi.values();
  }
  get vesselCount(): number {
    return this.byMmsi.size;
  }
  /** The newest stored position's seq, as far as this process knows. */
  get knownHeadSeq(): number {
    return this.headSeq;
  }

  /** A vessel another process created after this one started: loaded from the store on demand. */
  async loadVessel(by: { vslId?: string; mmsi?: number; imo?: number }): Promise<VesselState | undefined> {
    const row = await this.deps.repo.findVessel(by);
    if (!row) return undefined;
    const known = this.byMmsi.get(Number(row.mmsi));
    if (known) return known;
    const state = stateFromRow(row);
    this.index(state);
    return state;
  }

  droppedPositions(): { duplicate: number; rejected: number } {
    return { duplicate: this.positionsDuplicate, rejected: Object.values(this.rejected).reduce((a, b) => a + b, 0) };
  }

  stats(): FleetStats {
    return {
      vessels: this.byMmsi.size,
      positions_stored: this.positionsStored,
      positions_duplicate: this.positionsDuplicate,
      positions_buffered: this.positionBuffer.length,
      identity_changes: this.identityChanges,
      rejected: { ...this.rejected },
      quality_flags: { ...this.flagged },
      ignored_messages: { ...this.ignored },
      invalid_imo: this.invalidImo,
      last_observation_at: this.lastObservationAt === null ? null : iso(this.lastObservationAt),
      last_flush_at: this.lastFlushAt === null ? null : iso(this.lastFlushAt),
    };
  }

  statusReporter(): StatusReporter {
    return { name: 'fleet', report: () => ({ ...this.stats() }) };
  }

  // ---- internals ----

  private index(state: VesselState): void {
    this.byMmsi.set(state.mmsi, state);
    this.byVslId.set(state.vslId, state);
    if (state.imo !== null) this.byImo.set(state.imo, state);
  }

  private stateFor(mmsi: number, meta: ObservationMeta): VesselState {
    let state = this.byMmsi.get(mmsi);
    if (!state) {
      state = {
        vslId: newVslId(),
        mmsi,
        imo: null,
        name: null,
        callsign: null,
        shipType: null,
        flag: flagForMmsi(mmsi),
        lengthM: null,
        beamM: null,
        draughtM: null,
        destination: null,
        eta: null,
        simulated: meta.simulated,
        sources: [],
        firstSeenAt: meta.observedAt,
        lastSeenAt: meta.observedAt,
        identityObservedAt: null,
        latest: null,
        jumpCandidate: null,
      };
      this.index(state);
      this.dirty.add(state);
    }
    // The vessels row is rewritten only when what it holds beyond positions changes: last_seen_at and
    // the latest fix are rebuilt from the stored positions at start (FleetRepo.loadVessels).
    if (meta.simulated && !state.simulated) {
      state.simulated = true;
      this.dirty.add(state);
    }
    if (meta.observedAt > state.lastSeenAt) state.lastSeenAt = meta.observedAt;
    if (meta.observedAt < state.firstSeenAt) {
      state.firstSeenAt = meta.observedAt;
      this.dirty.add(state);
    }
    if (state.sources[state.sources.length - 1] !== meta.source) {
      const at = state.sources.indexOf(meta.source);
      if (at >= 0) state.sources.splice(at, 1);
      state.sources.push(meta.source);
      if (state.sources.length > MAX_SOURCES) state.sources.shift();
      this.dirty.add(state);
    }
    if (this.lastObservationAt === null || meta.observedAt > this.lastObservationAt) this.lastObservationAt = meta.observedAt;
    return state;
  }

  private async writeBatch(): Promise<void> {
    const positions = this.positionBuffer;
    const history = this.historyBuffer;
    const dirty = [...this.dirty];
    this.positionBuffer = [];
    this.historyBuffer = [];
    this.dirty = new Set();
    if (positions.length === 0 && dirty.length === 0 && history.length === 0) return;

    const rows = new Array<PositionWrite>(positions.length);
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i]!;
      p.row.vsl_id = p.state.vslId;
      rows[i] = p.row;
    }
    let result;
    try {
      result = await this.deps.repo.writeBatch(dirty.map(rowFromState), history, rows);
    } catch (err) {
      this.rejected.store_error += positions.length;
      this.deps.onError?.(err, 'fleet batch write failed');
      throw err;
    }
    this.lastFlushAt = this.deps.clock.now();
    for (const state of dirty) {
      const stored = result.vslIds.get(state.mmsi);
      if (stored !== undefined && stored !== state.vslId) {
        this.byVslId.delete(state.vslId);
        state.vslId = stored;
        this.byVslId.set(stored, state);
      }
    }

    const stored: StoredPosition[] = [];
    for (const { index, seq, vsl_id: vslId, observed_at: observedAt } of result.inserted) {
      const p = positions[index]!;
      stored.push(storedPosition(seq, vslId, p.row.mmsi, observedAt, p.row, p.flags));
    }
    stored.sort((a, b) => a.seq - b.seq);
    this.positionsStored += stored.length;
    this.positionsDuplicate += positions.length - stored.length;
    if (stored.length > 0) this.headSeq = Math.max(this.headSeq, stored[stored.length - 1]!.seq);

    try {
      if (dirty.length > 0) {
        await this.deps.bus.publish(VESSELS_TOPIC, { origin: this.instanceId, vessels: dirty.map(identityOf) } satisfies VesselsEvent);
      }
      for (let i = 0; i < stored.length; i += PUBLISH_CHUNK) {
        await this.deps.bus.publish(POSITIONS_TOPIC, { origin: this.instanceId, positions: stored.slice(i, i + PUBLISH_CHUNK) } satisfies PositionsEvent);
      }
    } catch (err) {
      this.deps.onError?.(err, 'fleet publish failed');
    }
  }

  private applyRemoteVessels(event: VesselsEvent): void {
    if (!event || event.origin === this.instanceId || !Array.isArray(event.vessels)) return;
    for (const identity of event.vessels) {
      const known = this.byMmsi.get(identity.mmsi);
      if (!known) {
        this.index({ ...identity, latest: null, jumpCandidate: null });
        continue;
      }
      if (known.vslId !== identity.vslId) {
        this.byVslId.delete(known.vslId);
        known.vslId = identity.vslId;
        this.byVslId.set(known.vslId, known);
      }
      if (known.imo !== null && known.imo !== identity.imo && this.byImo.get(known.imo) === known) this.byImo.delete(known.imo);
      // Identity events come only with identity changes; positions events may have told of a later sighting.
      const { latest, jumpCandidate } = known;
      Object.assign(known, identity, { latest, jumpCandidate, lastSeenAt: Math.max(known.lastSeenAt, identity.lastSeenAt) });
      if (known.imo !== null) this.byImo.set(known.imo, known);
    }
  }

  private applyRemotePositions(event: PositionsEvent): void {
    if (!event || event.origin === this.instanceId || !Array.isArray(event.positions)) return;
    for (const p of event.positions) {
      this.positionsStored++;
      if (p.seq > this.headSeq) this.headSeq = p.seq;
      if (this.lastObservationAt === null || p.observedAt > this.lastObservationAt) this.lastObservationAt = p.observedAt;
      const state = this.byVslId.get(p.vslId) ?? this.byMmsi.get(p.mmsi);
      if (!state) continue;
      if (p.observedAt > state.lastSeenAt) state.lastSeenAt = p.observedAt;
      if (!p.usable) continue;
      offerLatestFix(state, p, p.qualityFlags);
    }
  }
}

export function createFleetService(deps: FleetServiceDeps): FleetService {
  return new FleetService(deps);
}
