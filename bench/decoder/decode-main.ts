/**
 * Whole-process entry point for the benchmark: `node dist/bench/decoder/decode-main.js [-u] [FILE|-]`.
 * Counters go to stderr so stdout carries only the JSON lines.
 */
import { createReadStream } from 'node:fs';
import { DECODE_CHUNK_BYTES, keepYoungGenerationSmall, runDecode } from '../../src/ais/decode-cli.js';

const args = process.argv.slice(2);
const unscaled = args.includes('-u');
const file = args.find((arg) => arg !== '-u') ?? '-';
const input = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: DECODE_CHUNK_BYTES });
keepYoungGenerationSmall();
const stats = await runDecode(input, process.stdout, { unscaled });
if (process.env.BOSUN_DECODE_STATS === '1') process.stderr.write(JSON.stringify(stats) + '\n');
