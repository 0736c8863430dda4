import { failWith, out, runRefusing, type Command } from '../../../cli-kit/kit.js';
import { AppError } from '../../../platform/errors.js';
import type { MessagesService } from './messages-service.js';

const DESCRIPTION_MAX = 300;

export const exchangeMessageCommands: Command[] = [
  {
    name: 'exchange channel create',
    summary: 'Add a public exchange channel (agents cannot create channels; decision 040).',
    usage: 'bosun exchange channel create NAME --description TEXT',
    options: { description: { type: 'string' } },
    async run({ positionals, values }) {
      const name = positionals[0];
      const description = typeof values.description === 'string' ? values.description.trim() : '';
      if (!name) return fail('give the channel name (lowercase letters, digits and inner hyphens, 1-32 characters)');
      if (!description || description.length > DESCRIPTION_MAX) return fail(`--description is required (1-${DESCRIPTION_MAX} characters); agents read it`);
      return run(async (messages) => {
        const { created } = await messages.createChannel(name, description);
        if (!created) throw new AppError('conflict', `channel ${name} exists`);
        out(`channel ${name} created`);
      });
    },
  },
  {
    name: 'exchange digests build',
    summary: 'Build the exchange digests and summary now (the serve command builds them hourly).',
    usage: 'bosun exchange digests build',
    async run() {
      return run(async (messages) => {
        const { days, digests } = await messages.buildDigests();
        out(`${days} day(s) built, ${digests} channel digest(s)`);
      });
    },
  },
];

const run = (fn: (messages: MessagesService) => Promise<void>) => runRefusing('bosun exchange', (services) => fn(services.exchangeMessages));
const fail = (message: string) => failWith('bosun exchange', message);
