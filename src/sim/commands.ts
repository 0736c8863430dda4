import { once } from 'node:events';
import { err, type Command } from '../cli-kit/kit.js';
import { cliIo } from '../cli-kit/io.js';
import { parseIso, HOUR, MINUTE, systemClock } from '../platform/clock.js';
import { seedFromText } from './random.js';

const USAGE = `bosun demo nmea [--hours N] [--from ISO-TIME] [--vessels N] [--seed TEXT] [--rates live|backfill]

Writes the demo fleet's AIVDM sentences (NMEA 4 tag blocks, s:demo-simulator) for a time window
to standard output, e.g. to replay elsewhere or to feed \`bosun ingest -\`. The window starts at
--from (default: --hours before now) and lasts --hours (default 1). Vessels and seed default to
BOSUN_DEMO_VESSELS and BOSUN_DEMO_SEED; --rates live (default) uses ITU reporting intervals.`;

export const simCommands: Command[] = [
  {
    name: 'demo nmea',
    summary: "Print the demo fleet's simulated AIVDM sentences for a time window.",
    usage: USAGE,
    options: { hours: { type: 'string' }, from: { type: 'string' }, vessels: { type: 'string' }, seed: { type: 'string' }, rates: { type: 'string' } },
    async run({ values }) {
      const [{ loadConfig }, { BACKFILL_RATES, DemoFleet, LIVE_RATES }] = await Promise.all([import('../platform/config.js'), import('./fleet.js')]);
      const demo = loadConfig(cliIo().env).demo;
      const hours = Number(values.hours ?? '1');
      const vessels = Number(values.vessels ?? demo.vessels);
      const fromText = values.from as string | undefined;
      const from = fromText === undefined ? Math.floor(systemClock.now() / 1000) * 1000 - hours * HOUR : parseIso(fromText);
      const rates = values.rates ?? 'live';
      if (!(hours > 0 && hours <= 24 * 31)) return fail('--hours must be a number of hours between 0 and 744');
      if (!Number.isInteger(vessels) || vessels < 0 || vessels > 9999) return fail('--vessels must be a whole number 0-9999');
      if (!Number.isFinite(from)) return fail(`--from: not a time: ${fromText}`);
      if (rates !== 'live' && rates !== 'backfill') return fail('--rates must be live or backfill');
      const fleet = new DemoFleet({
        seed: seedFromText((values.seed as string | undefined) ?? demo.seed),
        vessels,
        startMs: from,
        rates: rates === 'live' ? LIVE_RATES : BACKFILL_RATES,
      });
      const to = from + hours * HOUR;
      for (let t = from; t < to;) {
        t = Math.min(to, t + 10 * MINUTE);
        let chunk = '';
        fleet.advanceTo(t, (line) => (chunk += line + '\n'));
        const { stdout } = cliIo();
        if (!stdout.write(chunk)) await once(stdout, 'drain');
      }
      return 0;
    },
  },
];

function fail(message: string): number {
  err(`bosun demo nmea: ${message}`);
  return 1;
}
