import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { splitCsvLine } from '../../feeds/ais-csv.js';

export interface CsvRecord {
  /** 1-based line of the record's first line in the file (the header is line 1). */
  line: number;
  fields: Record<string, string>;
}

export interface ByteProgress {
  /** Bytes of the file read so far (compressed bytes for .gz). */
  read(): number;
}

/**
 * Reads a CSV (gzip when `gzip`) record by record: a quoted field may span lines, so lines are
 * joined while a record has an odd number of quotes. Memory stays at one record.
 */
export function csvRecords(path: string, gzip: boolean): { records: AsyncIterable<CsvRecord>; progress: ByteProgress } {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const input = gzip ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => input.destroy(e));
  const reader = createInterface({ input, crlfDelay: Infinity });
  const lines = reader[Symbol.asyncIterator]();
  async function* records(): AsyncGenerator<CsvRecord> {
    let header: string[] | null = null;
    let lineNo = 0;
    let pending = '';
    let pendingStart = 0;
    try {
      for (;;) {
        const next = await lines.next();
        if (next.done) break;
        lineNo++;
        const text = lineNo === 1 ? next.value.replace(/^\uFEFF/, '') : next.value;
        if (pending === '') pendingStart = lineNo;
        pending = pending === '' ? text : pending + '\n' + text;
        if (quoteCount(pending) % 2 === 1) continue;
        const fields = splitCsvLine(pending);
        pending = '';
        if (header === null) {
          header = fields.map((f) => f.trim());
          continue;
        }
        if (fields.length === 1 && fields[0] === '') continue;
        const record: Record<string, string> = {};
        header.forEach((name, i) => (record[name] = fields[i] ?? ''));
        yield { line: pendingStart, fields: record };
      }
    } finally {
      reader.close();
      raw.destroy();
    }
  }
  return { records: records(), progress: { read: () => raw.bytesRead } };
}

function quoteCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) count++;
  return count;
}
