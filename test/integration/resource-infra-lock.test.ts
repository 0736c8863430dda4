import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCursorCodec } from '../../src/http/cursor-codec.js';
import { AppError } from '../../src/platform/errors.js';
import { createInfraRepo, type InfraRepo } from '../../src/features/resource-infra/infra-repo.js';
import { createInfraService, INGEST_LEASE_MS } from '../../src/features/resource-infra/infra-service.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const coal = sharedDataPath('infra/gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv');
const LOCK = 'resource_infra';

/** The code of an ingest's rejection (an AppError), or the error itself when it is something else. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('the ingest was not refused');
}

describe('resource_infra: two ingests are serialised by the ingest lock', { skip: coal.skip }, () => {
  let app: TestApp;
  let dir: string;
  let path: string;
  let repo: InfraRepo;
  const infra = () => app.bosun.ctx.services.resourceInfra;

  before(async () => {
    app = await startTestApp();
    repo = createInfraRepo(app.bosun.ctx.store.db);
    dir = mkdtempSync(join(tmpdir(), 'bosun-infra-lock-'));
    // the first 40 rows of the real file (header + lines 2-41): 36 terminals
    path = join(dir, 'coal.csv');
    writeFileSync(path, readFileSync(coal.path, 'utf8').split('\n').slice(0, 41).join('\n') + '\n');
  });
  after(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an ingest started while another runs (ingest_in_progress), then runs once the first has finished', async () => {
    const started: Array<Promise<{ code: string; message: string }>> = [];
    // the first ingest has read and classified its file and holds the lock: it starts a second one and
    // waits for its answer before it goes on (timing alone let the first finish first on a loaded machine)
    const holding: InfraRepo = {
      ...repo,
      async hashes(sourceId) {
        if (!started.length) started.push(refusal(infra().ingest({ source: 'gem_gctt', file: path })));
        await started[0];
        return repo.hashes(sourceId);
      },
    };
    const first = await createInfraService({
      repo: holding,
      cursors: createCursorCodec('lock-test-secret-0123456789abcdef'),
      clock: app.clock,
      ports: () => app.bosun.ctx.services.ports.table(),
      layerFile: null,
    }).ingest({
      source: 'gem_gctt',
      file: path,
    });
    assert.equal(started.length, 1, 'the second ingest was started during the first');
    const refused = await started[0]!;
    assert.equal(refused.code, 'ingest_in_progress');
    assert.match(refused.message, /another resource_infra ingest holds the ingest lock \(pid \d+ on .+: gem_gctt, since 20\d\d-.+, lease until/);
    assert.equal(first.reports[0]!.created, 36);
    // the refused ingest recorded no run; the lock is free again
    const runs = await repo.runs();
    assert.deepEqual(
      runs.map((r) => r.state),
      ['succeeded'],
    );
    const again = (await infra().ingest({ source: 'gem_gctt', file: path })).reports[0]!;
    assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 36]);
  });

  it('started together, exactly one of two ingests runs and the other is refused', async () => {
    // both claims are decided before either ingest goes on: each waits after its claim until the other has
    // claimed too (timing alone let one ingest finish and release the lock before the other claimed on a loaded
    // machine, and then both ran, one after the other, as a lock should let them)
    let claimed = 0;
    let bothClaimed!: () => void;
    const barrier = new Promise<void>((resolve) => (bothClaimed = resolve));
    const together: InfraRepo = {
      ...repo,
      async claimIngestLock(claim) {
        const outcome = await repo.claimIngestLock(claim);
        if (++claimed === 2) bothClaimed();
        await barrier;
        return outcome;
      },
    };
    const service = () =>
      createInfraService({
        repo: together,
        cursors: createCursorCodec('lock-test-secret-0123456789abcdef'),
        clock: app.clock,
        ports: () => app.bosun.ctx.services.ports.table(),
        layerFile: null,
      });
    const results = await Promise.allSettled([service().ingest({ source: 'gem_gctt', file: path }), service().ingest({ source: 'gem_gctt', file: path })]);
    assert.equal(claimed, 2);
    const ran = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(ran.length, 1);
    assert.equal(refused.length, 1);
    assert.equal((refused[0]!.reason as AppError).code, 'ingest_in_progress');
  });

  it('refuses while another process holds a live lease; takes a lapsed lease over and fails the run it left running', async () => {
    // another CLI process took the lock at t0 and started a run, then stopped (killed) without releasing it
    const t0 = app.clock.now();
    const claim = await repo.claimIngestLock({ name: LOCK, owner: 'other-process', holder: 'pid 1 on elsewhere: all sources', now: t0, leaseMs: INGEST_LEASE_MS });
    assert.deepEqual(claim, { acquired: true, tookOverFrom: null });
    const orphan = await repo.startRun({ source_id: 'gem_gctt', file: path, shipped_file: 0, file_sha256: null, started_at: t0 });

    app.clock.advance(INGEST_LEASE_MS - 1);
    const refused = await refusal(infra().ingest({ source: 'gem_gctt', file: path }));
    assert.equal(refused.code, 'ingest_in_progress');
    assert.match(refused.message, /\(pid 1 on elsewhere: all sources, since .+, lease until .+\)/);

    app.clock.advance(2);
    const report = (await infra().ingest({ source: 'gem_gctt', file: path })).reports[0]!;
    assert.deepEqual([report.created, report.updated, report.unchanged], [0, 0, 36]);
    const left = (await repo.runs()).find((r) => r.id === orphan)!;
    assert.equal(left.state, 'failed');
    assert.match(left.error ?? '', /^abandoned: its ingest \(pid 1 on elsewhere: all sources\) stopped renewing the ingest lock/);
    // the stopped process, coming back, no longer holds the lock
    assert.equal(await repo.renewIngestLock(LOCK, 'other-process', app.clock.now(), INGEST_LEASE_MS), false);
  });

  it('an ingest whose lapsed lease was taken over writes nothing: its run fails with ingest_in_progress', async () => {
    const objectsBefore = (await repo.objects()).length;
    // a service whose repo lets another ingest take the lock over just before this one writes
    const takeover: InfraRepo = {
      ...repo,
      async hashes(sourceId) {
        app.clock.advance(INGEST_LEASE_MS + 1);
        const taken = await repo.claimIngestLock({ name: LOCK, owner: 'late-process', holder: 'pid 2 on elsewhere: gem_gctt', now: app.clock.now(), leaseMs: INGEST_LEASE_MS });
        assert.equal(taken.acquired, true);
        return repo.hashes(sourceId);
      },
    };
    const slow = createInfraService({ repo: takeover, cursors: createCursorCodec('lock-test-secret-0123456789abcdef'), clock: app.clock, ports: () => [] });
    const shorter = join(dir, 'coal-10.csv');
    writeFileSync(shorter, readFileSync(path, 'utf8').split('\n').slice(0, 11).join('\n') + '\n');
    const refused = await refusal(slow.ingest({ source: 'gem_gctt', file: shorter }));
    assert.equal(refused.code, 'ingest_in_progress');
    assert.match(refused.message, /taken over by another ingest.*wrote nothing/);
    const last = (await repo.runs()).at(-1)!;
    assert.equal(last.state, 'failed');
    assert.equal((await repo.objects()).length, objectsBefore, 'no object of the 10-row file replaced the 36 stored');
    // the ingest that took over still holds the lock: a third is refused until it releases
    assert.equal((await refusal(infra().ingest({ source: 'gem_gctt', file: path }))).code, 'ingest_in_progress');
    await repo.releaseIngestLock(LOCK, 'late-process');
    assert.equal((await infra().ingest({ source: 'gem_gctt', file: path })).reports[0]!.unchanged, 36);
  });
});
