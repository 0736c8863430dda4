/**
 * Feed specifications, shared by `BOSUN_FEEDS` and `bosun ingest`:
 *   tcp://host:port              connect to a receiver or aggregator (reconnects)
 *   tcp-listen://host:port       accept NMEA clients
 *   udp://host:port              receive datagrams
 *   file:path[?pace=recorded|fast|xN]   replay a file (.gz accepted); a bare path means file:path
 *   - | stdin                    standard input
 *   demo                         the demo fleet simulator
 *   none                         no feeds
 * Several specs are separated by commas.
 */
import { closestWord } from './edit-distance.js';

export type ReplayPace = { kind: 'fast' } | { kind: 'recorded'; speed: number };

export type FeedSpec =
  | { kind: 'tcp-client'; name: string; host: string; port: number }
  | { kind: 'tcp-server'; name: string; host: string; port: number }
  | { kind: 'udp'; name: string; host: string; port: number }
  | { kind: 'file'; name: string; path: string; pace: ReplayPace }
  | { kind: 'stdin'; name: string }
  | { kind: 'demo'; name: string };

export class FeedSpecError extends Error {}

export const DEMO_SOURCE_NAME = 'demo-simulator';

const fail = (spec: string, why: string): never => {
  throw new FeedSpecError(`invalid feed "${spec}": ${why}`);
};

function parseHostPort(spec: string, rest: string, allowPortZero: boolean): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]]*):(\d{1,5})\/?$/.exec(rest);
  if (!match) return fail(spec, 'expected host:port, e.g. tcp://192.168.1.20:10110');
  const port = Number(match[2]);
  if (port > 65535 || (port === 0 && !allowPortZero)) fail(spec, `port ${port} is out of range`);
  const host = match[1]!.replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

export function parsePace(spec: string, value: string): ReplayPace {
  if (value === 'fast') return { kind: 'fast' };
  if (value === 'recorded') return { kind: 'recorded', speed: 1 };
  const scaled = /^x(\d+(\.\d+)?)$/.exec(value);
  if (scaled && Number(scaled[1]) > 0) return { kind: 'recorded', speed: Number(scaled[1]) };
  return fail(spec, `pace must be recorded, fast or xN (e.g. x10), got "${value}"`);
}

function basename(path: string): string {
  return path.slice(path.replace(/\/+$/, '').lastIndexOf('/') + 1);
}

function parseFile(spec: string, body: string): FeedSpec {
  const question = body.indexOf('?');
  let path = question < 0 ? body : body.slice(0, question);
  if (path.startsWith('//')) path = path.slice(2);
  if (path.length === 0) fail(spec, 'missing file path');
  let pace: ReplayPace = { kind: 'fast' };
  if (question >= 0) {
    for (const pair of body.slice(question + 1).split('&')) {
      const [key, value = ''] = pair.split('=');
      if (key === 'pace') pace = parsePace(spec, value);
      else fail(spec, `unknown option "${key}" (only pace=recorded|fast|xN)`);
    }
  }
  return { kind: 'file', name: `file:${basename(path)}`, path, pace };
}

const SCHEMES = ['tcp', 'tcp-listen', 'udp', 'file'];
const KEYWORDS = ['demo', 'none', 'stdin'];

function parseOne(spec: string): FeedSpec {
  if (spec === '-' || spec === 'stdin') return { kind: 'stdin', name: 'stdin' };
  if (spec === 'demo') return { kind: 'demo', name: DEMO_SOURCE_NAME };
  const scheme = /^([a-z][a-z0-9+-]*):/.exec(spec)?.[1];
  if (scheme === 'tcp' || scheme === 'tcp-listen' || scheme === 'udp') {
    if (!spec.startsWith(`${scheme}://`)) fail(spec, `expected ${scheme}://host:port`);
    const { host, port } = parseHostPort(spec, spec.slice(scheme.length + 3), scheme !== 'tcp');
    if (scheme === 'tcp') {
      if (host === '') fail(spec, 'a TCP client needs a host');
      return { kind: 'tcp-client', name: `tcp:${host}:${port}`, host, port };
    }
    const bind = host === '' ? '0.0.0.0' : host;
    if (scheme === 'udp') return { kind: 'udp', name: `udp:${bind}:${port}`, host: bind, port };
    return { kind: 'tcp-server', name: `tcp-listen:${bind}:${port}`, host: bind, port };
  }
  if (scheme === 'file') return parseFile(spec, spec.slice('file:'.length));
  if (scheme !== undefined && scheme.length > 1) {
    const near = closestWord(scheme, SCHEMES, 2);
    return fail(spec, `unknown scheme "${scheme}:"${near ? ` — did you mean ${near}:?` : ''} (use tcp://, tcp-listen://, udp://, file:, -, demo or none)`);
  }
  // A bare word one or two typos from a keyword is a misspelled keyword, not a file (file:word names a file).
  const keyword = /^[a-z]+$/i.test(spec) ? closestWord(spec.toLowerCase(), KEYWORDS, spec.length <= 4 ? 1 : 2) : null;
  if (keyword) fail(spec, `did you mean ${keyword}? (for a file of that name write file:${spec})`);
  // A bare path (a one-letter "scheme" is a Windows drive letter).
  return parseFile(spec, spec);
}

/** Parses a comma-separated list of feed specs; `none` (alone) or an empty list means no feeds. */
export function parseFeedSpecs(input: string | readonly string[]): FeedSpec[] {
  const parts = (typeof input === 'string' ? [input] : input)
    .flatMap((item) => item.split(','))
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.includes('none')) {
    if (parts.length > 1) throw new FeedSpecError('invalid feeds: "none" cannot be combined with other feeds');
    return [];
  }
  const specs = parts.map(parseOne);
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec.name)) throw new FeedSpecError(`invalid feeds: "${spec.name}" is given twice`);
    seen.add(spec.name);
  }
  return specs;
}
