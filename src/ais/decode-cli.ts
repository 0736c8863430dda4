/**
 * `bosun decode`: NMEA lines in, one JSON object per decoded message out. The only I/O in src/ais.
 */
import { setFlagsFromString } from 'node:v8';
import { AisDecoder, type DecodedMessage, type DecoderStats } from './decoder.js';
import { JsonLineWriter, maxLineBytes } from './render.js';

export interface RunDecodeOptions {
  /** Raw integers like `gpsdecode -u -j` instead of scaled units. */
  unscaled?: boolean;
  /** Add each message's raw NMEA lines as `"sentences"`. */
  sentences?: boolean;
  maxPendingGroups?: number;
}

/**
 * Size of the input chunks the decoder reads (`createReadStream`'s highWaterMark) and of each output
 * buffer. Larger chunks measured no faster and each one is held several times over (the bytes, the
 * latin1 string, the buffers queued in the output stream).
 */
export const DECODE_CHUNK_BYTES = 16 * 1024;
/**
 * For a process that only decodes: V8 doubles its young generation up to 16 MB (32 MB of semispaces)
 * under a steady allocation rate, though almost nothing the decoder allocates survives a scavenge; the
 * flag, read at each growth, keeps it at its 1 MB start. Measured: peak RSS 66 -> 58 MB on the
 * 1M-sentence benchmark, no slower (bench/RESULTS.md). Call before decoding, never in `serve`.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** Output buffers written and not yet acknowledged before decoding waits: bounds memory on a slow reader. */
const MAX_OUTPUT_IN_FLIGHT = 4;

/**
 * Output buffers go round a small pool: a buffer is reused once the stream has written it, and decoding
 * waits while MAX_OUTPUT_IN_FLIGHT are still being written (backpressure from the consumer of the output).
 */
class OutputBuffers {
  private readonly free: Buffer[] = [];
  private inFlight = 0;
  private writable: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(private readonly output: NodeJS.WritableStream) {}

  allocate = (bytes: number): Buffer => {
    const index = this.free.findIndex((buffer) => buffer.length >= bytes);
    return index >= 0 ? this.free.splice(index, 1)[0]! : Buffer.allocUnsafe(Math.max(bytes, DECODE_CHUNK_BYTES));
  };

  /** Writes `filled`, the used part of `pooled`, which returns to the pool once written. */
  write(pooled: Buffer, filled: Buffer): void {
    this.inFlight++;
    this.output.write(filled, (err) => {
      this.inFlight--;
      if (err) this.failure ??= err;
      else this.free.push(pooled);
      const resume = this.writable;
      this.writable = null;
      resume?.();
    });
  }

  /** Resolves when fewer than `limit` buffers are being written. */
  async below(limit: number): Promise<void> {
    while (this.inFlight >= limit && this.failure === null) await new Promise<void>((resolve) => (this.writable = resolve));
    if (this.failure) throw this.failure;
  }
}

/** Decode `input` to `output`; resolves with the decoder's counters when input ends. */
export async function runDecode(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, opts: RunDecodeOptions = {}): Promise<DecoderStats> {
  const renderOptions = { sentences: opts.sentences === true };
  const buffers = new OutputBuffers(output);
  const writer = new JsonLineWriter(DECODE_CHUNK_BYTES, buffers.allocate);
  const decoder = new AisDecoder(
    {
      scaled: opts.unscaled !== true,
      keepSentences: opts.sentences === true,
      ...(opts.maxPendingGroups !== undefined ? { maxPendingGroups: opts.maxPendingGroups } : {}),
    },
    (message: DecodedMessage) => {
      const current = writer.buffer;
      const filled = writer.reserve(maxLineBytes(message));
      if (filled !== null) buffers.write(current, filled);
      writer.writeMessage(message, renderOptions);
    },
  );

  let carry = '';
  for await (const chunk of input) {
    // latin1 maps bytes 1:1, so a multi-byte character split across chunks cannot corrupt a line.
    const text = carry + (typeof chunk === 'string' ? chunk : chunk.toString('latin1'));
    let lineStart = 0;
    for (;;) {
      const newline = text.indexOf('\n', lineStart);
      if (newline < 0) break;
      decoder.feed(text.slice(lineStart, newline));
      lineStart = newline + 1;
    }
    carry = text.slice(lineStart);
    await buffers.below(MAX_OUTPUT_IN_FLIGHT);
  }
  if (carry.length > 0) decoder.feed(carry);
  decoder.flush();
  if (writer.used > 0) buffers.write(writer.buffer, writer.buffer.subarray(0, writer.used));
  await buffers.below(1);
  return decoder.stats();
}
