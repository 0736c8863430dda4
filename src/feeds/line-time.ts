import { parsePghpTime, parseTagBlock, parseTrailer } from '../ais/nmea.js';

/**
 * The time recorded with a line (tag block `c:`, USCG trailing epoch, or a `$PGHP` sentence), in
 * epoch ms, or null. Used to replay recordings at their recorded pace.
 */
export function recordedLineTime(line: string): number | null {
  let start = 0;
  if (line.charCodeAt(0) === 92 /* \ */) {
    const close = line.indexOf('\\', 1);
    if (close < 0) return null;
    const tag = parseTagBlock(line, 1, close);
    if (tag?.timeMs != null) return tag.timeMs;
    start = close + 1;
  }
  const star = line.indexOf('*', start);
  if (star < 0) return null;
  if (line.startsWith('$PGHP,', start)) return parsePghpTime(line, start + 1, star);
  if (star + 4 < line.length && line.charCodeAt(star + 3) === 44 /* , */) return parseTrailer(line, star + 4, line.length).timeMs;
  return null;
}
