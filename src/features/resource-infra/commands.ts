import { err, out, withBosun, type Command } from '../../cli-kit/kit.js';
import { cliIo } from '../../cli-kit/io.js';
import { AppError } from '../../platform/errors.js';
import type { IngestReport } from './pipeline.js';
import { INFRA_SOURCES } from './sources.js';

const n = (value: number) => value.toLocaleString('en-US');

function reportLines(r: IngestReport): string[] {
  const skipped = Object.entries(r.skipped).map(([k, v]) => `${n(v)} ${k}`);
  const findings = Object.entries(r.findings).map(([k, v]) => `${n(v)} ${k}`);
  return [
    `${r.source}: run ${r.run_id}, ${n(r.rows_read)} rows in ${(r.duration_ms / 1000).toFixed(1)} s`,
    `  created ${n(r.created)}, updated ${n(r.updated)}, unchanged ${n(r.unchanged)}, removed ${n(r.removed)}, failed rows ${n(r.failed)}${skipped.length ? `, skipped ${skipped.join(', ')}` : ''}`,
    ...(findings.length ? [`  findings: ${findings.join(', ')}`] : []),
    `  layer objects now ${n(r.objects_after)}`,
  ];
}

export const infraCommands: Command[] = [
  {
    name: 'layers ingest',
    summary: 'Ingest the resource_infra layer from its declared sources (GEM trackers, EMODnet wind farms).',
    usage: [
      'bosun layers ingest resource_infra [--source ID] [--file PATH] [--json]',
      '',
      `Sources: ${INFRA_SOURCES.map((s) => s.id).join(', ')}.`,
      'Without --source every declared source whose file is present under ../shared/data/infra is read.',
      "--file reads another file of the same source (a newer release) with that source's parser.",
      'Rows stream through the pipeline; a rerun of the same file changes nothing. Each run is recorded',
      '(rows read, created/updated/unchanged/removed, failed rows with their reasons). Progress goes to',
      'stderr; --json prints the reports as JSON.',
    ].join('\n'),
    options: { source: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean' } },
    async run({ values, positionals }) {
      if (positionals.length !== 1 || positionals[0] !== 'resource_infra') {
        err('usage: bosun layers ingest resource_infra [--source ID] [--file PATH] [--json]');
        return 2;
      }
      const { stderr } = cliIo();
      const tty = (stderr as { isTTY?: boolean }).isTTY === true;
      return withBosun(async (bosun) => {
        let lastSource = '';
        let lastPhase = '';
        try {
          // nearest ports from the port table as served: imported rows and operator corrections (decision 056)
          await bosun.ctx.services.ports.refresh();
          await bosun.ctx.services.overrides.refresh();
          const { reports, missing } = await bosun.ctx.services.resourceInfra.ingest({
            source: values.source as string | undefined,
            file: values.file as string | undefined,
            onProgress: (p) => {
              const percent = Math.min(100, Math.floor((p.bytes / Math.max(p.size, 1)) * 100));
              if (tty) {
                const bar = '#'.repeat(Math.floor(percent / 5)).padEnd(20, '.');
                stderr.write(`\r${p.source.padEnd(24)} [${bar}] ${String(percent).padStart(3)}%  ${n(p.rows)} rows  ${p.phase}   `);
              } else if (p.source !== lastSource || p.phase !== lastPhase) stderr.write(`${p.source}: ${p.phase} (${n(p.rows)} rows, ${percent}% of the file)\n`);
              if (tty && p.phase === 'writing') stderr.write('\n');
              lastSource = p.source;
              lastPhase = p.phase;
            },
          });
          if (values.json) out(JSON.stringify({ reports, missing }));
          else {
            for (const r of reports) for (const line of reportLines(r)) out(line);
            for (const path of missing) out(`not found (skipped): ${path}`);
          }
          return reports.length ? 0 : 1;
        } catch (e) {
          if (e instanceof AppError) {
            err(e.message);
            return 1;
          }
          throw e;
        }
      });
    },
  },
];
