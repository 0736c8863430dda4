import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { err, out, withBosun, type Command } from '../../cli-kit/kit.js';
import { cliIo } from '../../cli-kit/io.js';
import type { PortImportReport } from './port-import.js';

const n = (value: number) => value.toLocaleString('en-US');
const LISTED_CHANGES = 100;

/** gzip is recognised by its magic bytes, whatever the file is called. */
async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function reportLines(file: string, r: PortImportReport & { recorded: number; version: number }): string[] {
  const kind = r.kind === 'wpi' ? 'World Port Index' : 'UN/LOCODE';
  const lines = [`${file}: ${kind} file, ${n(r.rows)} rows`, `  added ${n(r.added)}, updated ${n(r.updated)}, unchanged ${n(r.unchanged)}, rejected ${n(r.rejected.length)}`];
  if (r.kind === 'unlocode') lines.push(`  not in the table: ${n(r.skipped.not_a_port)} places that are not ports, ${n(r.skipped.no_coordinates)} ports without coordinates`);
  if (r.rejected.length) {
    lines.push('  rejected rows:');
    for (const row of r.rejected) lines.push(`    line ${row.line}: ${row.reason}`);
  }
  if (r.changes.length) {
    lines.push('  changed ports:');
    for (const c of r.changes.slice(0, LISTED_CHANGES))
      lines.push(`    line ${c.line}: port ${c.port_id} ${c.change} (${c.name})${c.coordinate_conflict ? ' [coordinate_conflict: sources more than 20 km apart]' : ''}`);
    if (r.changes.length > LISTED_CHANGES) lines.push(`    … ${n(r.changes.length - LISTED_CHANGES)} more (--json lists all)`);
  }
  lines.push(r.recorded ? `  recorded ${n(r.recorded)} source rows (port table version ${r.version})` : '  nothing changed: every row is already in the port table');
  return lines;
}

export const portCommands: Command[] = [
  {
    name: 'import ports',
    summary: 'Import a World Port Index (UpdatedPub150.csv) or UN/LOCODE file into the port table (.gz accepted).',
    usage: [
      'bosun import ports <FILE> [--json]',
      '',
      'The kind of file is recognised from its header: NGA World Port Index (Pub 150) CSV, or UN/LOCODE as',
      'combined by geoapify/un-locode (country,location,name,nameWoDiacritics,…,function,…,lat,lon,geocoded).',
      'Rows are read one by one and laid over the shipped table; port ids follow decision 018 (the index',
      'number, or 100,000,000 + the LOCODE in base 36) and ports whose sources disagree by more than 20 km',
      'are flagged coordinate_conflict. Importing the same file again changes nothing and says so. Rejected',
      'rows are listed with their line and reason. Every serve process on the store sees the change on its',
      'next port search. Progress goes to stderr; --json prints the whole report as JSON.',
    ].join('\n'),
    options: { json: { type: 'boolean' } },
    async run({ values, positionals }) {
      const file = positionals[0];
      if (!file || positionals.length > 1) {
        err('usage: bosun import ports <FILE> [--json]');
        return 2;
      }
      let size: number;
      let gzip: boolean;
      try {
        size = (await stat(file)).size;
        gzip = await isGzip(file);
      } catch (e) {
        err(`cannot read ${file}: ${(e as Error).message}`);
        return 1;
      }
      const { stderr } = cliIo();
      const tty = (stderr as { isTTY?: boolean }).isTTY === true;
      return withBosun(async (bosun) => {
        const raw = createReadStream(file, { highWaterMark: 1 << 20 });
        const input = gzip ? raw.pipe(createGunzip()) : raw;
        raw.on('error', (e) => input.destroy(e));
        const reader = createInterface({ input, crlfDelay: Infinity });
        // readline reads as soon as it exists: its iterator must exist before the first await, or the first lines are lost
        const iterator = reader[Symbol.asyncIterator]();
        const lines = { [Symbol.asyncIterator]: () => iterator };
        const started = performance.now();
        let lastLine = 0;
        const onProgress = (rows: number) => {
          const seconds = (performance.now() - started) / 1000;
          if (tty) stderr.write(`\r${file}: ${String(Math.floor((raw.bytesRead / Math.max(size, 1)) * 100)).padStart(3)}%  ${n(rows)} rows  ${seconds.toFixed(1)} s `);
          else if (rows - lastLine >= 50_000) {
            lastLine = rows;
            stderr.write(`${file}: ${n(rows)} rows read (${Math.floor((raw.bytesRead / Math.max(size, 1)) * 100)}% of the file)\n`);
          }
        };
        try {
          const report = await bosun.ctx.services.ports.import(lines, { sourceFile: basename(file), onProgress });
          if (tty) stderr.write('\n');
          if (values.json) out(JSON.stringify(report));
          else for (const line of reportLines(file, report)) out(line);
          return 0;
        } finally {
          reader.close();
          raw.destroy();
        }
      });
    },
  },
];
