import assert from 'node:assert/strict';
import test from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { type TestApp, withApp } from '../helpers/app.js';
import { callRow, completedCall } from '../helpers/events-congestion.js';
import { identity, ingest, position, seedSampleVessel } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { encounterRow } from '../helpers/event-rows.js';

// An applied vessel name correction (docs/feedback.md) is the name every reader gets: keyed and
// anonymous search, lookup, the delayed preview, STS events, visit rank and the public map; reverting
// it brings the observed name back everywhere.

const CLI = { kind: 'cli' } as const;
const iso = (ms: number) => new Date(ms).toISOString();
const OBSERVED = 'OCEAN PRIDE';
const CORRECTED = 'NORDIC STAR';

async function applyName(app: TestApp, token: string, name: string): Promise<string> {
  const res = await app.api('POST', '/v1/feedback/correction', { token, body: { subject: { kind: 'vessel', id: 'IMO:9811000' }, changes: [{ field: 'name', value: name }], body: 'Renamed.' } });
  assert.equal(res.status, 201, res.text);
  const ticketId = res.body.data.ticket_id as string;
  await app.bosun.ctx.services.feedback.step(ticketId, 'accept', {}, CLI);
  await app.bosun.ctx.services.feedback.step(ticketId, 'apply', {}, CLI);
  return ticketId;
}

test('a corrected vessel name is found by keyed and anonymous search and shown by lookup, preview, STS events, visit rank and the map; revert restores', () =>
  withApp(async (app) => {
    const now = app.clock.now();
    await seedSampleVessel(app.bosun.ctx.services.fleet, now);
    const vslId = app.bosun.ctx.services.fleet.byImoNumber(9811000)!.vslId;
    // a partner for an encounter, and two completed calls of the vessel
    await seedSampleVesselPartner(app, now);
    const partner = app.bosun.ctx.services.fleet.byImoNumber(9074729)!.vslId;
    const events = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    await events.upsertEncounters([encounterRow({ vsl_a: vslId, vsl_b: partner, end_at: now - 2 * HOUR, lat: 1.25, lon: 103.8, updated_at: now })]);
    await events.upsertCalls([completedCall(vslId, 9240, 80, now - 3 * HOUR, 1, 5), completedCall(vslId, 9240, 80, now - 30 * HOUR, 1, 5)].map(callRow));
    const { apiKey } = await app.registerAgent('reader', ['vessels:live']);

    const keyedSearch = async (q: string) => (await app.api('GET', `/v1/vessels/search?q=${encodeURIComponent(q)}`, { token: apiKey })).body;
    const anonymousSearch = async (q: string) => (await app.api('GET', `/v1/bootstrap/vessels/search?q=${encodeURIComponent(q)}`)).body;
    const names = (body: { data: { items: Array<{ vsl_id: string; name: string | null }> } }) => body.data.items.filter((i) => i.vsl_id === vslId).map((i) => i.name);
    const stsNames = async () => {
      const res = await app.api('GET', `/v1/sts/events?from=${iso(now - DAY)}&to=${iso(now)}`, { token: apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body.data.items.flatMap((e: { vessels: Array<{ vsl_id: string; name: string }> }) => e.vessels.filter((v) => v.vsl_id === vslId).map((v) => v.name));
    };
    const rankNames = async () => {
      const res = await app.api('GET', `/v1/vessels/visit_rank?by=vessel&from=${iso(now - 2 * DAY)}&to=${iso(now)}`, { token: apiKey });
      assert.equal(res.status, 200, res.text);
      return res.body.data.items.filter((i: { vessel: { vsl_id: string } }) => i.vessel.vsl_id === vslId).map((i: { vessel: { name: string } }) => i.vessel.name);
    };
    const mapNames = async () => {
      const fc = JSON.parse((await app.api('GET', '/map/data/vessels.geojson')).text) as { features: Array<{ properties: { vsl_id: string; name: string } }> };
      return fc.features.filter((f) => f.properties.vsl_id === vslId).map((f) => f.properties.name);
    };
    const previewName = async () => (await app.api('GET', '/v1/bootstrap/vessels/last_position?imo=9811000')).body.data.vessel.name;

    assert.deepEqual(names(await keyedSearch(OBSERVED)), [OBSERVED]);
    assert.deepEqual(await stsNames(), [OBSERVED]);
    assert.deepEqual(await rankNames(), [OBSERVED]);

    const ticketId = await applyName(app, apiKey, CORRECTED);

    const keyed = await keyedSearch(CORRECTED);
    assert.deepEqual(names(keyed), [CORRECTED]);
    assert.ok(keyed.quality_flags.includes('operator_corrected'));
    assert.deepEqual(names(await keyedSearch('NORDIC')), [CORRECTED], 'a prefix of the corrected name');
    assert.deepEqual(names(await keyedSearch(OBSERVED)), [], 'the observed name is no longer the served one');
    const anonymous = await anonymousSearch(CORRECTED);
    assert.deepEqual(names(anonymous), [CORRECTED]);
    assert.ok(anonymous.quality_flags.includes('operator_corrected'));
    assert.deepEqual(names(await anonymousSearch(OBSERVED)), []);
    const lookup = await app.api('GET', '/v1/vessels/lookup?imo=9811000', { token: apiKey });
    assert.equal(lookup.body.data.vessel.name, CORRECTED);
    assert.equal(await previewName(), CORRECTED);
    assert.deepEqual(await stsNames(), [CORRECTED]);
    assert.deepEqual(await rankNames(), [CORRECTED]);
    app.clock.advance(60_000); // past the map layer's cache
    assert.deepEqual(await mapNames(), [CORRECTED]);

    await app.bosun.ctx.services.feedback.step(ticketId, 'revert', {}, CLI);
    assert.deepEqual(names(await keyedSearch(OBSERVED)), [OBSERVED]);
    assert.deepEqual(names(await anonymousSearch(CORRECTED)), []);
    assert.equal(await previewName(), OBSERVED);
    assert.deepEqual(await stsNames(), [OBSERVED]);
    assert.deepEqual(await rankNames(), [OBSERVED]);
    app.clock.advance(60_000);
    assert.deepEqual(await mapNames(), [OBSERVED]);
  }));

/** A second vessel (IMO 9074729) near the first, for the encounter. */
async function seedSampleVesselPartner(app: TestApp, now: number): Promise<void> {
  const mmsi = 563099900;
  await ingest(app.bosun.ctx.services.fleet, identity(mmsi, now - 20 * HOUR, { imo: 9074729, name: 'SEA PARTNER', shipType: 80 }), position(mmsi, now - 20 * HOUR, 1.21, 103.71));
}
