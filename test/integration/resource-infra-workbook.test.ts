import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { openSource } from '../../src/features/resource-infra/parsers.js';
import { INFRA_SOURCES } from '../../src/features/resource-infra/sources.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const coal = INFRA_SOURCES.find((s) => s.id === 'gem_gcpt')!;
const workbook = sharedDataPath(`infra/${coal.file}`);

/** This process's open files that were deleted or are exceljs's temporary sheet copies (Linux /proc). */
function openTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.endsWith('(deleted)') || /\/tmp-\d+-/.test(target));
}

/** Waits for the file requests in flight (a stream's close, exceljs's clean-up of its copy) to finish: a turn of the loop at a time, until none is pending. */
async function fileRequestsSettled(): Promise<void> {
  const pending = () => process.getActiveResourcesInfo().some((r) => r === 'FSReqCallback' || r === 'FSReqPromise' || r === 'FileHandleCloseReq');
  for (let turns = 0; pending(); turns++) {
    if (turns > 1_000_000) throw new Error('file requests still pending');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// The workbook stores its sheets before the shared strings, so exceljs copies each sheet to a temporary file
// and deletes it when the next sheet is asked for. A sheet the parser skips must still be read to its end:
// left unread, its stream kept the deleted file open, or opened it after the deletion and failed outside
// any caller (an uncaught ENOENT that failed a CI run after its tests had passed).
describe('the coal plant workbook (exceljs streaming reader)', { skip: workbook.skip || (process.platform !== 'linux' && 'reads /proc/self/fd') }, () => {
  it('reads every Units row and leaves no temporary sheet file open, read after read', async () => {
    for (let read = 0; read < 3; read++) {
      const opened = await openSource(coal, workbook.path, 1, false);
      let rows = 0;
      for await (const row of opened.rows) if ('unit' in row || 'failure' in row) rows++;
      assert.equal(rows, 14004); // ../shared/data/infra/PROVENANCE.md
      await fileRequestsSettled();
      assert.deepEqual(openTemporaryFiles(), []);
    }
  });
});
