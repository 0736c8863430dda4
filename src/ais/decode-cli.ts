/**
 * `bosun decode`: NMEA lines in, one JSON object per decoded message out. The only I/O in src/ais.
 */
import { AisDecoder, type DecodedMessage, type DecoderStats } from './decoder.js';
import { JsonLineWriter, maxLineBytes } from './render.js';

export interface RunDecodeOptions {
  /** Raw integers like `gpsdecode -u -j` instead of scaled units. */
  unscaled?: boolean;
  /** Add each message's raw NMEA lines as `"sentences"`. */
  sentences?: boolean;
  maxPendingGroups?: number;
}

const OUTPUT_BUFFER_BYTES = 1 << 20;

/** Decode `input` to `output`; resolves with the decoder's counters when input ends. */
export async function runDecode(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: RunDecodeOptions = {},
): Promise<DecoderStats> {
  const renderOptions = { sentences: opts.sentences === true };
  const writer = new JsonLineWriter(OUTPUT_BUFFER_BYTES);
  const full: Buffer[] = [];
  const decoder = new AisDecoder(
    {
      scaled: opts.unscaled !== true,
      keepSentences: opts.sentences === true,
      ...(opts.maxPendingGroups !== undefined ? { maxPendingGroups: opts.maxPendingGroups } : {}),
    },
    (message: DecodedMessage) => {
      const filled = writer.reserve(maxLineBytes(message));
      if (filled !== null) full.push(filled);
      writer.writeMessage(message, renderOptions);
    },
  );

  const drainFull = async (): Promise<void> => {
    while (full.length > 0) {
      const chunk = full.shift()!;
      if (!output.write(chunk)) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
    }
  };

  let carry = '';
  for await (const chunk of input) {
    // latin1 maps bytes 1:1, so a multi-byte character split across chunks cannot corrupt a line.
    const text = carry + (typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('latin1'));
    let lineStart = 0;
    for (;;) {
      const newline = text.indexOf('\n', lineStart);
      if (newline < 0) break;
      decoder.feed(text.slice(lineStart, newline));
      lineStart = newline + 1;
    }
    carry = text.slice(lineStart);
    if (full.length > 0) await drainFull();
  }
  if (carry.length > 0) decoder.feed(carry);
  decoder.flush();
  if (writer.used > 0) full.push(writer.buffer.subarray(0, writer.used));
  await drainFull();
  return decoder.stats();
}
