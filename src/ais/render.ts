/**
 * One JSON object per message, built by hand: field values are numbers, booleans, null or
 * strings, so only strings need escaping, and JSON.stringify is used for them only when a
 * character needs it.
 */
import type { DecodedMessage } from './decoder.js';
import type { FieldValue } from './messages.js';

function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 34 || code === 92 || code > 126) return true;
  }
  return false;
}

function jsonString(text: string): string {
  return needsEscape(text) ? JSON.stringify(text) : '"' + text + '"';
}

function jsonValue(value: FieldValue): string {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? '' + value : 'null';
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

export interface RenderOptions {
  /** Include the raw NMEA lines as `"sentences":[...]`. */
  sentences?: boolean;
}

/**
 * gpsd-named fields followed by Bosun metadata: `channel`, `talker`, `own_ship`, then
 * `received_ms` and `source` when known, and `flag` for header-only messages.
 */
export function messageToJson(message: DecodedMessage, options: RenderOptions = {}): string {
  const fields = message.fields;
  let json = '{';
  let first = true;
  for (const key in fields) {
    json += (first ? '"' : ',"') + key + '":' + jsonValue(fields[key]!);
    first = false;
  }
  const meta = message.meta;
  json += ',"channel":' + jsonString(meta.channel) + ',"talker":' + jsonString(meta.talker) + ',"own_ship":' + (meta.ownShip ? 'true' : 'false');
  if (meta.receivedAtMs !== null) json += ',"received_ms":' + meta.receivedAtMs;
  if (meta.source !== null) json += ',"source":' + jsonString(meta.source);
  if (message.flag !== null) json += ',"flag":"' + message.flag + '"';
  if (options.sentences === true) json += ',"sentences":' + JSON.stringify(meta.sentences);
  return json + '}';
}
