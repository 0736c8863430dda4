import type { VoyageCall, VoyageRow } from '../../src/events/voyages.js';
import type { Db } from '../../src/store/db.js';

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** Every stored voyage, by vessel and origin arrival, with numbers as numbers on both stores. */
export async function storedVoyages(db: Db): Promise<VoyageRow[]> {
  const rows = await db
    .selectFrom('voyages')
    .select(['vsl_id', 'from_port', 'to_port', 'from_arrival', 'departure', 'arrival', 'ship_type', 'simulated'])
    .orderBy('vsl_id')
    .orderBy('from_arrival')
    .execute();
  return rows.map((r) => ({
    vsl_id: r.vsl_id,
    from_port: Number(r.from_port),
    to_port: Number(r.to_port),
    from_arrival: Number(r.from_arrival),
    departure: Number(r.departure),
    arrival: Number(r.arrival),
    ship_type: numberOrNull(r.ship_type),
    simulated: Number(r.simulated),
  }));
}

/** Every stored port call as the voyage pairing reads it, with numbers as numbers on both stores. */
export async function storedVoyageCalls(db: Db): Promise<VoyageCall[]> {
  const calls = await db.selectFrom('port_calls').select(['vsl_id', 'port_id', 'ship_type', 'arrival', 'departure', 'last_fix_at', 'simulated']).execute();
  return calls.map((c) => ({
    vsl_id: c.vsl_id,
    port_id: Number(c.port_id),
    ship_type: numberOrNull(c.ship_type),
    arrival: Number(c.arrival),
    departure: numberOrNull(c.departure),
    last_fix_at: Number(c.last_fix_at),
    simulated: Number(c.simulated),
  }));
}

/** Every stored cell of port_call_days (decision 138), in key order, with numbers as numbers on both stores. */
export async function storedCallDays(db: Db) {
  const rows = await db.selectFrom('port_call_days').selectAll().orderBy(['arrival_day', 'port_id', 'ship_type', 'simulated', 'departure_day']).execute();
  return rows.map((r) => ({
    arrival_day: Number(r.arrival_day),
    port_id: Number(r.port_id),
    ship_type: Number(r.ship_type),
    simulated: Number(r.simulated),
    departure_day: Number(r.departure_day),
    calls: Number(r.calls),
  }));
}

/** Every stored voyage cell (decision 149), day cells then week cells, as what it counts: key, voyages, simulated, vessels (sorted), with numbers as numbers on both stores. */
export async function storedVoyageCells(db: Db) {
  const rows = await db.selectFrom('voyage_cells').selectAll().orderBy('period_days').orderBy('period_start').orderBy('from_port').orderBy('to_port').orderBy('category').execute();
  return rows.map((r) => ({
    period_days: Number(r.period_days),
    period_start: Number(r.period_start),
    from_port: Number(r.from_port),
    to_port: Number(r.to_port),
    category: r.category,
    voyages: Number(r.voyages),
    left_out: Number(r.left_out),
    simulated: Number(r.simulated),
    vessels: (JSON.parse(r.facts) as Array<[string]>).map((v) => v[0]).sort(),
  }));
}

/**
 * Every stored lane cell (decision 153), day cells then week cells, as what it counts: key, voyages, simulated,
 * vessels (sorted; null for an approximate cell, whose vessels are registers), with numbers as numbers on both stores.
 */
export async function storedVoyageLaneCells(db: Db) {
  const rows = await db.selectFrom('voyage_lane_cells').selectAll().orderBy('period_days').orderBy('period_start').orderBy('from_port').orderBy('to_port').execute();
  return rows.map((r) => ({
    period_days: Number(r.period_days),
    period_start: Number(r.period_start),
    from_port: Number(r.from_port),
    to_port: Number(r.to_port),
    voyages: Number(r.voyages),
    left_out: Number(r.left_out),
    simulated: Number(r.simulated),
    vessels: r.voyage_list === null ? null : (JSON.parse(r.voyage_list) as [string[]])[0].sort(),
  }));
}
