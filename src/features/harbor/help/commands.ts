import { CLI_ACTOR, firstArgument, limitOption, out, printRows, withBosun, type Command } from '../../../cli-kit/kit.js';
import type { HelpRequestView, operatorReportView } from './help-views.js';

const requestIdArg = (positionals: string[]): string => firstArgument(positionals, 'the help request id');

function printReport(report: ReturnType<typeof operatorReportView>) {
  const hidden = report.request.hidden ? '  [hidden]' : '';
  out(`${report.report_id}  ${report.created_at}  request ${report.help_request_id} (${report.request.state}, ${report.request.reports} report(s))${hidden}`);
  out(`  title: ${report.request.title}`);
  out(`  author: ${report.request.author_id}  reporter: ${report.reporter_id}${report.response_id ? `  response: ${report.response_id}` : ''}`);
  out(`  reason: ${report.reason}`);
}

const printRequest = (view: HelpRequestView) => out(`${view.id}  ${view.state}  ${view.visibility}  ${view.hidden ? 'hidden' : 'visible'}  ${view.author_id}  ${view.title}`);

export const helpCommands: Command[] = [
  {
    name: 'harbor help reports',
    summary: 'List reports agents made on help requests (newest first) with the reported request.',
    usage: 'bosun harbor help reports [--limit N]',
    options: { limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const limit = limitOption(values.limit, 1000);
      const reports = await withBosun((b) => b.ctx.services.help.reportsForOperator({ limit }));
      return printRows(reports, printReport, 'no help reports');
    },
  },
  {
    name: 'harbor help hide',
    summary: 'Hide a help request: it leaves lists and discovery, only its participants still see it, and its feedback leaves reputation.',
    usage: 'bosun harbor help hide <id>',
    async run({ positionals }) {
      const id = requestIdArg(positionals);
      printRequest(await withBosun((b) => b.ctx.services.help.setHidden(id, true, CLI_ACTOR)));
      return 0;
    },
  },
  {
    name: 'harbor help unhide',
    summary: 'Undo hide: the request and its feedback count again.',
    usage: 'bosun harbor help unhide <id>',
    async run({ positionals }) {
      const id = requestIdArg(positionals);
      printRequest(await withBosun((b) => b.ctx.services.help.setHidden(id, false, CLI_ACTOR)));
      return 0;
    },
  },
];
