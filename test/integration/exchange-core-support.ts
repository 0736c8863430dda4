import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { identity, imo, ingest, position } from '../helpers/fleet.js';
import type { TestApp } from '../helpers/app.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';

/** Rotterdam and Singapore in the shipped port table (real World Port Index / UN/LOCODE data). */
export const ROTTERDAM = 31140;
export const VESSEL_MMSI = 244660000;
export const VESSEL_IMO = imo(931234);

export interface Agent {
  agentId: string;
  apiKey: string;
}

/** A vessel with two stored positions and one detected port call at Rotterdam; returns their references. */
export async function seedRecords(app: TestApp): Promise<{ vslId: string; seqs: number[]; portCallId: number }> {
  const now = app.clock.now();
  const { fleet } = app.bosun.ctx.services;
  await ingest(
    fleet,
    identity(VESSEL_MMSI, now - 3 * 3_600_000, { imo: VESSEL_IMO, name: 'EXCHANGE TEST', shipType: 70 }),
    position(VESSEL_MMSI, now - 3 * 3_600_000, 51.95, 4.05),
    position(VESSEL_MMSI, now - 2 * 3_600_000, 51.9, 4.2),
  );
  const vessel = await fleet.loadVessel({ mmsi: VESSEL_MMSI });
  assert.ok(vessel);
  const db = app.bosun.ctx.store.db;
  const seqs = (await db.selectFrom('positions').select('seq').where('vsl_id', '=', vessel.vslId).orderBy('seq').execute()).map((r) => Number(r.seq));
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls([
    {
      vsl_id: vessel.vslId,
      port_id: ROTTERDAM,
      ship_type: 70,
      arrival: now - 3 * 3_600_000,
      departure: null,
      last_fix_at: now - 2 * 3_600_000,
      anchorage_ms: 0,
      berth_ms: 3_600_000,
      stops: '[]',
      first_seq: seqs[0]!,
      last_seq: seqs[1]!,
      fixes: 2,
      gaps: 0,
      confidence: 0.9,
      simulated: 0,
      updated_at: now,
    },
  ]);
  const call = await db.selectFrom('port_calls').select('id').where('vsl_id', '=', vessel.vslId).executeTakeFirstOrThrow();
  return { vslId: vessel.vslId, seqs, portCallId: Number(call.id) };
}

/** A valid claim body about Rotterdam (the port record itself as evidence). */
export function portClaim(text = 'Rotterdam berths were busy this week.'): Record<string, unknown> {
  return { subject: { type: 'port', ref: String(ROTTERDAM) }, kind: 'observation', text, evidence: [{ type: 'port', ref: String(ROTTERDAM) }] };
}

export async function createClaim(app: TestApp, agent: Agent, body: Record<string, unknown> = portClaim()): Promise<string> {
  const res = await app.api('POST', '/v1/exchange/claims', { token: agent.apiKey, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.claim_id;
}

export async function vote(app: TestApp, agent: Agent, target: string, targetId: string, value: 'up' | 'down', reason?: string) {
  return app.api('POST', '/v1/exchange/votes', { token: agent.apiKey, body: { target, target_id: targetId, value, ...(reason ? { reason } : {}) } });
}

/** Credits reputation straight into the ledger (a bounty reward from outside the test), for tests about what reputation unlocks. */
export async function credit(app: TestApp, agentId: string, delta: number): Promise<void> {
  const now = app.clock.now();
  await app.bosun.ctx.store.db
    .insertInto('exchange_reputation')
    .values({ entry_id: 'rep_seed' + randomBytes(6).toString('hex'), agent_id: agentId, delta, requested: delta, reason: 'bounty_reward', reference: 'bty_seed', capped: 0, created_at: now })
    .execute();
}

export async function reputation(app: TestApp, agent: Agent): Promise<any> {
  const res = await app.api('GET', '/v1/exchange/reputation/me?limit=50', { token: agent.apiKey });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

export const errorCode = (res: { body: any }) => res.body?.errors?.[0]?.code;
