import { err, out, withBosun, type Command } from '../../cli-kit/kit.js';
import { iso, parseIso } from '../../platform/clock.js';

const REBUILD_USAGE = `bosun events rebuild --from ISO-TIME --to ISO-TIME

Detects port calls, encounters (possible STS transfers), chokepoint transits, loitering and AIS
gaps again over stored
history: deletes the events that began between --from and --to, replays every usable position
observed from 12 hours before --from up to --to in time order, and writes the events that began in
the window (calls still under way at --to as ongoing; loitering still under way at --to ends at the
last position before it). Run it after importing history (e.g.
\`bosun import ais-csv\`) whose positions arrived out of time order. The live detector's own state
is not touched.`;

const STATUS_USAGE = `bosun events status

Prints the live event detector's checkpoint: the last position sequence analysed, the observation
time it had reached, and which process holds the detector lease.`;

const AREAS_USAGE = `bosun events areas rebuild

Rebuilds the stored port areas (docs/decisions/116): the cells of the Global Fishing Watch anchorage
points the port table assigns to each port, merged into areas (provenance gfw), and the cells where at
least two distinct vessels stopped in stored port calls, outside those, merged and attached to the port
of the calls (provenance learnt). Each area is berth or anchorage by how the ships behaved in its
stops (swinging at anchor or AIS status 1: anchorage), with a confidence and its evidence counts.
Operator areas are kept. Run it after importing history or rebuilding events.`;

export const eventCommands: Command[] = [
  {
    name: 'events rebuild',
    summary: 'Detect port calls, encounters, chokepoint transits, loitering and AIS gaps again over a window of stored history.',
    usage: REBUILD_USAGE,
    options: { from: { type: 'string' }, to: { type: 'string' } },
    async run({ values }) {
      const from = typeof values.from === 'string' ? parseIso(values.from) : NaN;
      const to = typeof values.to === 'string' ? parseIso(values.to) : NaN;
      if (!Number.isFinite(from) || !Number.isFinite(to)) return fail('rebuild', '--from and --to are required ISO 8601 times (e.g. 2024-01-01T00:00:00Z)');
      if (from >= to) return fail('rebuild', '--from must be before --to');
      return withBosun(async ({ ctx }) => {
        // the port table as served: imported rows and the operator's corrections (docs/feedback.md)
        await ctx.services.ports.refresh();
        await ctx.services.overrides.refresh();
        const report = await ctx.services.events.runner.rebuild({ from, to });
        out(`analysed ${report.positions} positions observed ${iso(from - 12 * 3_600_000)} .. ${iso(to)}`);
        out(
          `deleted  ${report.deleted.calls} port calls, ${report.deleted.encounters} encounters, ${report.deleted.transits} transits, ${report.deleted.loitering} loitering, ${report.deleted.gaps} AIS gaps that began in the window`,
        );
        out(
          `written  ${report.written.calls} port calls (+${report.written.ongoingCalls} under way at --to), ${report.written.encounters} encounters, ${report.written.transits} transits, ${report.written.loitering} loitering, ${report.written.gaps} AIS gaps`,
        );
        return 0;
      });
    },
  },
  {
    name: 'events areas rebuild',
    summary: 'Rebuild the stored port areas from the GFW anchorage points and the stops of stored port calls.',
    usage: AREAS_USAGE,
    async run() {
      return withBosun(async ({ ctx }) => {
        await ctx.services.ports.refresh();
        const r = await ctx.services.events.areas.rebuild();
        out(`read     ${r.gfwPoints} GFW anchorage points, ${r.stops} stops of ${r.calls} port calls`);
        out(`replaced ${r.deleted} areas with ${r.written.gfw} gfw and ${r.written.learnt} learnt areas at ${r.ports} ports`);
        return 0;
      });
    },
  },
  {
    name: 'events status',
    summary: "Show the live event detector's checkpoint and lease.",
    usage: STATUS_USAGE,
    async run() {
      return withBosun(async ({ ctx }) => {
        const checkpoint = await ctx.services.events.reads.checkpoint('events');
        if (!checkpoint) {
          out('the live detector has not run yet');
          return 0;
        }
        out(`cursor_seq   ${checkpoint.cursor_seq}`);
        out(`analysed_to  ${checkpoint.data_time === null ? '-' : iso(checkpoint.data_time)}`);
        out(`lease        ${checkpoint.owner ?? 'free'}${checkpoint.owner ? ' until ' + iso(checkpoint.lease_until) : ''}`);
        out(`saved_at     ${iso(checkpoint.updated_at)}`);
        return 0;
      });
    },
  },
];

function fail(command: string, message: string): number {
  err(`bosun events ${command}: ${message}`);
  return 1;
}
