import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { cliIo } from '../cli-kit/io.js';
import { err, out, withBosun, type Command } from '../cli-kit/kit.js';
import type { AisCsvSummary } from './ais-csv.js';
import { FeedSpecError, parseFeedSpecs, type FeedSpec } from '../platform/feed-spec.js';
import { iso } from '../platform/clock.js';

const n = (value: number) => value.toLocaleString('en-US');

/** Resolves on the first Ctrl-C / SIGTERM; a second one exits at once. */
function interruptSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = (name: string) => {
    if (controller.signal.aborted) {
      err(`second ${name}: exiting without flushing`);
      process.exit(130);
    }
    err(`${name}: stopping sources and flushing…`);
    controller.abort();
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

function summaryLines(s: AisCsvSummary, seconds: number): string[] {
  const rejected = Object.entries(s.rejected).filter(([, count]) => count > 0);
  const rate = seconds > 0 ? Math.round(s.rows / seconds) : s.rows;
  return [
    `${s.source}: ${n(s.rows)} rows in ${seconds.toFixed(1)} s (${n(rate)} rows/s)`,
    `  positions stored ${n(s.positions)}, duplicates dropped ${n(s.duplicates)}${s.storeRejected ? `, refused by the store ${n(s.storeRejected)}` : ''}, identity reports ${n(s.statics)}, vessels ${n(s.vessels)}`,
    `  rejected ${n(rejected.reduce((a, [, c]) => a + c, 0))}${rejected.length ? ` (${rejected.map(([r, c]) => `${r} ${n(c)}`).join(', ')})` : ''}`,
    s.firstObservedAt !== null ? `  observed ${iso(s.firstObservedAt)} … ${iso(s.lastObservedAt!)}` : '  no positions',
  ];
}

function progressBar(fraction: number, rows: number, startedAt: number): string {
  const width = 30;
  const filled = Math.round(Math.min(1, fraction) * width);
  const seconds = (performance.now() - startedAt) / 1000;
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${n(rows)} rows  ${n(Math.round(rows / Math.max(seconds, 0.001)))} rows/s `;
}

export const feedCommands: Command[] = [
  {
    name: 'ingest',
    summary: 'Ingest AIS from feeds (TCP, UDP, files, stdin) into the store, printing per-source statistics.',
    usage: [
      'bosun ingest <source…> [--stats-every SECONDS] [--json]',
      '',
      'Sources (several, or comma-separated):',
      '  tcp://HOST:PORT              connect to a receiver or aggregator; reconnects with backoff',
      '  tcp-listen://HOST:PORT       accept NMEA clients',
      '  udp://HOST:PORT              receive NMEA datagrams',
      '  file:PATH[?pace=recorded|fast|xN]   replay a file (.gz accepted; default fast); a bare PATH works too',
      '  -                            standard input',
      '',
      'Files and standard input end the command when read (after a final flush); network sources run',
      'until Ctrl-C, which flushes and exits. Statistics go to stderr every --stats-every seconds',
      '(default 10, 0 = only at the end) and to stdout at the end; --json prints them as JSON.',
    ].join('\n'),
    options: { 'stats-every': { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, positionals }) {
      let specs: FeedSpec[];
      try {
        specs = parseFeedSpecs(positionals);
      } catch (e) {
        if (e instanceof FeedSpecError) {
          err(e.message);
          return 2;
        }
        throw e;
      }
      if (specs.length === 0) {
        err('no sources given: bosun ingest <source…> (see --help)');
        return 2;
      }
      const every = values['stats-every'] === undefined ? 10 : Number(values['stats-every']);
      if (!Number.isFinite(every) || every < 0) {
        err('--stats-every must be a number of seconds (0 = only at the end)');
        return 2;
      }
      const json = values.json === true;
      const interrupt = interruptSignal();
      try {
        const [{ FeedStartError, reportToJson }, { formatReport, runIngest }] = await Promise.all([import('./feed-manager.js'), import('./ingest.js')]);
        return await withBosun(async (bosun) => {
          const fleet = bosun.ctx.services.fleet;
          await fleet.start();
          fleet.startFlushing();
          const reports = await runIngest({
            specs,
            sink: fleet,
            clock: bosun.ctx.clock,
            logger: bosun.ctx.logger,
            statsEveryMs: every * 1000,
            json,
            signal: interrupt.signal,
            print: err,
            stdin: cliIo().stdin,
          }).catch((e: Error) => {
            if (e instanceof FeedStartError) {
              err(e.message);
              return null;
            }
            throw e;
          });
          if (reports === null) return 1;
          if (json) out(JSON.stringify({ sources: reports.map(reportToJson) }));
          else for (const report of reports) out(formatReport(report));
          return reports.some((r) => r.state === 'failed') ? 1 : 0;
        });
      } finally {
        interrupt.dispose();
      }
    },
  },
  {
    name: 'import ais-csv',
    summary: 'Import a MarineCadastre/NOAA AIS CSV file (.gz accepted) into the store.',
    usage: [
      'bosun import ais-csv <FILE> [--limit ROWS] [--json]',
      '',
      'Columns are matched by header name: MMSI, BaseDateTime, LAT, LON (required), SOG, COG, Heading,',
      'VesselName, IMO, CallSign, VesselType, Status, Length, Width, Draft (optional). Every row becomes a',
      'position; each vessel gets an identity report when its identity columns change. Bad rows are',
      'counted by reason and skipped. The source is labelled csv:<file name>. A progress bar is shown on',
      'a terminal; --limit stops after ROWS data rows; --json prints the summary as JSON.',
    ].join('\n'),
    options: { limit: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, positionals }) {
      const file = positionals[0];
      if (!file || positionals.length > 1) {
        err('usage: bosun import ais-csv <FILE> [--limit ROWS] [--json]');
        return 2;
      }
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
        err('--limit must be a positive whole number of rows');
        return 2;
      }
      let size: number;
      try {
        size = (await stat(file)).size;
      } catch (e) {
        err(`cannot read ${file}: ${(e as Error).message}`);
        return 1;
      }
      const { AisCsvError, csvSourceName, importAisCsv } = await import('./ais-csv.js');
      return withBosun(async (bosun) => {
        await bosun.ctx.services.fleet.start();
        const raw = createReadStream(file, { highWaterMark: 1 << 20 });
        const input = /\.gz$/i.test(file) ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
        raw.on('error', (e) => input.destroy(e));
        const tty = process.stderr.isTTY === true;
        const started = performance.now();
        let summary: AisCsvSummary;
        try {
          summary = await importAisCsv(input, {
            sink: bosun.ctx.services.fleet,
            clock: bosun.ctx.clock,
            source: csvSourceName(file),
            ...(limit !== undefined ? { limit } : {}),
            ...(tty ? { onProgress: (rows: number) => void process.stderr.write(progressBar(raw.bytesRead / Math.max(size, 1), rows, started)) } : {}),
          });
        } catch (e) {
          if (tty) process.stderr.write('\n');
          if (e instanceof AisCsvError) {
            err(`${file}: ${e.message}`);
            return 1;
          }
          throw e;
        }
        if (tty) process.stderr.write('\n');
        const seconds = (performance.now() - started) / 1000;
        if (values.json) out(JSON.stringify({ ...summary, seconds: Math.round(seconds * 100) / 100 }));
        else for (const line of summaryLines(summary, seconds)) out(line);
        return 0;
      });
    },
  },
];
