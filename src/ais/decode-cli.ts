/**
 * `bosun decode`: NMEA lines in, one JSON object per decoded message out. The only I/O in src/ais.
 */
import { AisDecoder, type DecodedMessage, type DecoderStats } from './decoder.js';
import { messageToJson } from './render.js';

export interface RunDecodeOptions {
  /** Raw integers like `gpsdecode -u -j` instead of scaled units. */
  unscaled?: boolean;
  /** Add each message's raw NMEA lines as `"sentences"`. */
  sentences?: boolean;
  maxPendingGroups?: number;
}

const OUTPUT_CHUNK_CHARS = 1 << 20;

/** Decode `input` to `output`; resolves with the decoder's counters when input ends. */
export async function runDecode(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  opts: RunDecodeOptions = {},
): Promise<DecoderStats> {
  const renderOptions = { sentences: opts.sentences === true };
  let pendingOutput = '';
  const decoder = new AisDecoder(
    {
      scaled: opts.unscaled !== true,
      keepSentences: opts.sentences === true,
      ...(opts.maxPendingGroups !== undefined ? { maxPendingGroups: opts.maxPendingGroups } : {}),
    },
    (message: DecodedMessage) => {
      pendingOutput += messageToJson(message, renderOptions) + '\n';
    },
  );

  const write = (text: string): Promise<void> | null => {
    if (output.write(text)) return null;
    return new Promise((resolve) => output.once('drain', () => resolve()));
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
    if (pendingOutput.length >= OUTPUT_CHUNK_CHARS) {
      const waiting = write(pendingOutput);
      pendingOutput = '';
      if (waiting !== null) await waiting;
    }
  }
  if (carry.length > 0) decoder.feed(carry);
  decoder.flush();
  if (pendingOutput.length > 0) {
    const waiting = write(pendingOutput);
    if (waiting !== null) await waiting;
  }
  return decoder.stats();
}
