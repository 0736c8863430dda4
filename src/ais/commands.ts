import { createReadStream } from 'node:fs';
import { err, type Command } from '../cli-kit/kit.js';
import { cliIo } from '../cli-kit/io.js';
import { DECODE_CHUNK_BYTES, keepYoungGenerationSmall, runDecode } from './decode-cli.js';

export const aisCommands: Command[] = [
  {
    name: 'decode',
    summary: 'Decode NMEA 0183 AIS sentences to JSON lines (one object per message).',
    usage:
      'bosun decode [FILE|-] [--unscaled] [--sentences] [--stats]\n\nReads FILE (or standard input for - or no argument). --unscaled prints raw integers like gpsdecode -u;\n--sentences adds the raw NMEA lines; --stats prints decoder counters (errors by reason) to stderr.',
    options: { unscaled: { type: 'boolean', short: 'u' }, sentences: { type: 'boolean' }, stats: { type: 'boolean' } },
    async run({ values, positionals }) {
      const file = positionals[0] ?? '-';
      const input: NodeJS.ReadableStream = file === '-' ? cliIo().stdin : createReadStream(file, { highWaterMark: DECODE_CHUNK_BYTES });
      const opened = new Promise<void>((resolve, reject) => {
        if (file === '-') return resolve();
        input.once('open', () => resolve());
        input.once('error', reject);
      });
      try {
        await opened;
      } catch (e) {
        err(`cannot read ${file}: ${(e as Error).message}`);
        return 1;
      }
      keepYoungGenerationSmall();
      const stats = await runDecode(input, cliIo().stdout, { unscaled: values.unscaled === true, sentences: values.sentences === true });
      if (values.stats) err(JSON.stringify(stats));
      return 0;
    },
  },
];
