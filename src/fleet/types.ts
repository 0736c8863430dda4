import type { DecodedMessage } from '../ais/index.js';

/**
 * The contract between whatever produces AIS observations (feeds, the CSV importer, the demo
 * fleet) and the fleet state that keeps them. Times are epoch milliseconds.
 */

/** Where and when an observation came from. */
export interface ObservationMeta {
  /** When the message was observed (tag block / trailer time, else reception time). */
  observedAt: number;
  /** When this process received it. */
  receivedAt: number;
  /** Feed name, e.g. `tcp:10.0.0.5:10110`, `file:houston.nmea`, `demo-simulator`, `csv:AIS_2020_01_01`. */
  source: string;
  /** True for generated data (the demo fleet); everything served from it is labelled simulated. */
  simulated: boolean;
}

/** Where a fix puts a vessel and how it was moving, as reported. */
export interface FixMotion {
  lat: number;
  lon: number;
  /** Knots; null when not available. */
  sog: number | null;
  /** Degrees true; null when not available. */
  cog: number | null;
  /** Degrees true; null when not available. */
  heading: number | null;
  /** AIS navigation status 0-15; null when unknown. */
  navStatus: number | null;
  /** AIS message type it came from; null for CSV rows. */
  msgType: number | null;
}

/** A position already decoded (CSV rows, or AIS types 1/2/3/18/19/27 after conversion). */
export interface PositionReport extends ObservationMeta, FixMotion {
  mmsi: number;
}

/** Identity and voyage data (AIS types 5, 19, 24, or CSV columns). Null fields are "not reported". */
export interface StaticReport extends ObservationMeta {
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  /** AIS ship and cargo type 0-99. */
  shipType: number | null;
  lengthM: number | null;
  beamM: number | null;
  draughtM: number | null;
  destination: string | null;
  /** ISO 8601 UTC, or null. */
  eta: string | null;
}

/**
 * Write side of the fleet. `accept*` buffer synchronously and never throw on bad data (bad
 * values become quality flags or counted rejections). Producers that can outrun the store (file
 * replay as fast as possible, CSV import, demo backfill) `await flush()` every few thousand records.
 */
export interface AisSink {
  acceptMessage(message: DecodedMessage, meta: ObservationMeta): void;
  acceptPosition(report: PositionReport): void;
  acceptStatic(report: StaticReport): void;
  /** Resolves when everything accepted so far is stored and published. */
  flush(): Promise<void>;
  /** Positions this process dropped so far: already stored (same vessel and time) or refused by the store. */
  droppedPositions?(): { duplicate: number; rejected: number };
}

/** Bus topic of stored positions (payload `PositionsEvent`), published after each batch is written. */
export const POSITIONS_TOPIC = 'positions';
/** Bus topic of identity changes (payload `VesselsEvent`), published after each batch is written. */
export const VESSELS_TOPIC = 'vessels';

/** A position as stored: `seq` is its place in the positions table and the updates cursor. */
export interface StoredPosition extends FixMotion {
  seq: number;
  vslId: string;
  mmsi: number;
  observedAt: number;
  receivedAt: number;
  source: string;
  simulated: boolean;
  /** False when a quality flag keeps it from being the vessel's latest position (see docs/fleet.md). */
  usable: boolean;
  qualityFlags: string[];
}

export interface PositionsEvent {
  /** The publishing process, so it can skip its own events where it already applied them. */
  origin: string;
  positions: StoredPosition[];
}

/** Merged identity of one vessel (one MMSI). */
export interface VesselIdentity {
  vslId: string;
  mmsi: number;
  imo: number | null;
  name: string | null;
  callsign: string | null;
  shipType: number | null;
  /** ISO 3166-1 alpha-2 from the MMSI's MID. */
  flag: string | null;
  lengthM: number | null;
  beamM: number | null;
  draughtM: number | null;
  destination: string | null;
  eta: string | null;
  simulated: boolean;
  /** Feed names that reported this vessel, most recent last. */
  sources: string[];
  firstSeenAt: number;
  lastSeenAt: number;
  /** Observation time of the static report that last set the identity; null before any. */
  identityObservedAt: number | null;
}

export interface VesselsEvent {
  origin: string;
  vessels: VesselIdentity[];
}
