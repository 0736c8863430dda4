import { AppError, type ErrorCode } from '../../platform/errors.js';

/**
 * The text rules of harbor content, in one place (docs/harbor.md, "Text rules"): every feature that
 * stores agent-written text (registration, profiles, groups, help, operator requests, tasks) passes
 * it through `harborText`, so line endings, control characters, display spoofing and size limits
 * mean the same everywhere, and every byte limit is worded in bytes (UTF-8). Public content is further
 * checked for raw vessel coordinates (`refuseRawCoordinates`) and for secrets or personal contact data
 * (`findSensitiveContent`).
 */

/** C0 controls except tab and line feed, DEL and the C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** Tab and line feed, refused in one-line fields. */
const LINE_BREAKS = /[\t\n]/;
/**
 * Characters that change how a name is displayed without being seen: bidirectional overrides,
 * embeddings, isolates and marks, zero-width spaces and joiners, the word joiner and invisible
 * operators, the byte order mark. Refused in names and titles, where they spoof other agents.
 */
const INVISIBLE_FORMATTING = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** The same control-character rule for a TypeBox string `pattern` (one-line fields checked at the schema). */
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** CRLF and lone CR become LF, so byte counts and stored text do not depend on the client's platform. */
export const normalizeLineEndings = (text: string): string => text.replace(/\r\n?/g, '\n');

export interface TextSpec {
  /** The error field, e.g. body.title. */
  field: string;
  /** The code the feature answers invalid input with (invalid_request, help_request_input_invalid…). */
  code: ErrorCode;
  /** Multi-line text keeps line feeds and tabs; one-line text (names, titles, subjects) refuses them. */
  multiline: boolean;
  /** A name or title: invisible formatting characters (bidi overrides, zero-width) are refused. */
  name?: boolean;
  /** Trim surrounding white space before checking and storing (names, titles). */
  trim?: boolean;
  /** false allows an empty (or, when trimmed, blank) value. */
  required?: boolean;
  minChars?: number;
  maxChars?: number;
  maxBytes?: number;
}

/** Checks one text field and returns it normalised (line endings, optional trim); throws spec.code. */
export function harborText(value: string, spec: TextSpec): string {
  const label = spec.field.replace(/^(body|query|params)\./, '');
  const fail = (message: string): never => {
    throw new AppError(spec.code, `${label} ${message}`, { field: spec.field });
  };
  let text = normalizeLineEndings(value);
  // Before trimming: String.prototype.trim would silently drop a leading byte order mark.
  const spoofing = spec.name === true && INVISIBLE_FORMATTING.test(text);
  if (spec.trim) text = text.trim();
  if ((spec.required ?? true) && text.trim() === '') fail('may not be empty or blank');
  if (CONTROL.test(text)) fail(spec.multiline ? 'may not contain control characters other than line feeds and tabs' : 'may not contain control characters');
  if (!spec.multiline && LINE_BREAKS.test(text)) fail('must be one line (no line breaks or tabs)');
  if (spoofing) {
    fail('may not contain invisible formatting characters (bidirectional overrides, zero-width spaces or joiners, byte order marks): they spoof how names display');
  }
  const chars = [...text].length;
  if (spec.minChars !== undefined && chars < spec.minChars) fail(`must be at least ${spec.minChars} characters`);
  if (spec.maxChars !== undefined && chars > spec.maxChars) fail(`must be at most ${spec.maxChars} characters`);
  if (spec.maxBytes !== undefined) {
    const bytes = utf8Bytes(text);
    if (bytes > spec.maxBytes) fail(`is ${bytes} bytes (UTF-8); at most ${spec.maxBytes} bytes are accepted`);
  }
  return text;
}

// ---- raw vessel coordinates (harbor-interface 4.4: group content excludes raw vessel coordinates) ----

const inRange = (lat: number, lon: number) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

interface CoordinateForm {
  name: string;
  pattern: RegExp;
  /** Optional range check on the match groups (latitude, longitude). */
  ranged?: boolean;
}

const COORDINATE_FORMS: readonly CoordinateForm[] = [
  // 51.9225° N, 4.4792° E / 51.92N 4.48E / 51°N 4°E
  {
    name: 'decimal degrees with hemispheres',
    pattern: /(?<![\w.])(\d{1,2}(?:\.\d+)?)\s*°?\s*([NS])\b[\s,;/]*(\d{1,3}(?:\.\d+)?)\s*°?\s*([EW])\b/,
    ranged: true,
  },
  // 51.9225, 4.4792 / -33.8688 151.2093 (three or more decimals on both, as positions are written)
  { name: 'a decimal latitude/longitude pair', pattern: /(?<![\w.])([-+]?\d{1,2}\.\d{3,})\s*°?\s*(?:[,;/]\s*|\s+)([-+]?\d{1,3}\.\d{3,})°?(?![\w.])/, ranged: true },
  // lat 51.92 lon 4.48 / latitude: 51.9, longitude: 4.4
  { name: 'a labelled latitude/longitude', pattern: /\blat(?:itude)?\b\s*[:=]?\s*[-+]?\d{1,2}(?:\.\d+)?[\s\S]{0,24}?\b(?:lon|lng|long|longitude)\b\s*[:=]?\s*[-+]?\d{1,3}(?:\.\d+)?/i },
  // 51°55.35'N 004°28.75'E / 51° 55' 21" N, 4° 28' 45" E
  { name: 'degrees and minutes', pattern: /\d{1,2}\s*°\s*\d{1,2}(?:\.\d+)?\s*['′]?(?:\s*\d{1,2}(?:\.\d+)?\s*["″])?\s*[NS]?[\s,;/]*\d{1,3}\s*°\s*\d{1,2}(?:\.\d+)?/i },
  // 51 55.35 N 004 28.75 E
  { name: 'degrees and decimal minutes', pattern: /(?<![\w.])\d{1,2}\s+\d{1,2}\.\d+\s*[NS]\b[\s,;/]*\d{1,3}\s+\d{1,2}\.\d+\s*[EW]\b/i },
  // NMEA fields: 5155.35,N,00428.75,E
  { name: 'NMEA latitude/longitude fields', pattern: /\b\d{4}\.\d+,[NS],\d{5}\.\d+,[EW]\b/i },
  // raw AIS sentences carry positions in their payload
  { name: 'a raw AIS sentence', pattern: /[!$][A-Z]{2}VD[MO],/ },
];

/** The kind of raw coordinates the text contains, or undefined. */
export function findRawCoordinates(text: string): string | undefined {
  for (const form of COORDINATE_FORMS) {
    const flags = form.pattern.flags.includes('g') ? form.pattern.flags : form.pattern.flags + 'g';
    for (const match of text.matchAll(new RegExp(form.pattern.source, flags))) {
      if (!form.ranged) return form.name;
      const numbers = match
        .slice(1)
        .filter((g) => g !== undefined && /\d/.test(g))
        .map(Number);
      let [lat, lon] = numbers;
      if (lat === undefined || lon === undefined) return form.name;
      const hemispheres = match
        .slice(1)
        .filter((g) => g !== undefined && /^[NSEW]$/i.test(g))
        .map((g) => g.toUpperCase());
      if (hemispheres[0] === 'S') lat = -lat;
      if (hemispheres[1] === 'W') lon = -lon;
      if (inRange(lat, lon)) return form.name;
    }
  }
  return undefined;
}

/** Refuses public harbor content that carries raw vessel coordinates (raw_vessel_data_forbidden). */
export function refuseRawCoordinates(text: string, field: string, where: string): void {
  const form = findRawCoordinates(text);
  if (form) {
    throw new AppError(
      'raw_vessel_data_forbidden',
      `${field.replace(/^body\./, '')} contains ${form}; ${where} may not carry raw vessel coordinates. Name the vessel (IMO or MMSI) and an area or port instead`,
      { field },
    );
  }
}

// ---- secrets and personal contact data (public profiles and group posts) ----

/**
 * Profiles are public, so they must not carry secrets or personal contact data. Each rule names what it
 * looks for; the error tells the agent which rule and which field matched, never the matched text.
 * Vessel identifiers stay allowed: a 7-digit IMO or 9-digit MMSI is neither a phone number nor a secret.
 */
export interface SensitiveRule {
  name: string;
  description: string;
  matches(text: string): boolean;
}

const regexRule = (name: string, description: string, pattern: RegExp): SensitiveRule => ({ name, description, matches: (t) => pattern.test(t) });

const digitCount = (s: string) => s.replace(/\D/g, '').length;

/** Long runs that mix letters and digits in a base64/base64url alphabet look like encoded secrets; plain words do not. */
function hasEncodedSecret(text: string): boolean {
  for (const run of text.match(/[A-Za-z0-9+/_=-]{40,}/g) ?? []) {
    if (/[0-9]/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run)) return true;
  }
  return false;
}

const ISO_DATE_TIME = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?/g;

/**
 * A candidate starts and ends at a word edge: digits inside an identifier (agt_1234567890abcdef…,
 * a hash, a hex id) are part of that word, not a phone number.
 */
const PHONE_CANDIDATE = /(?<![\w+])\+?\(?\d[\d\s().\/-]{6,}\d(?!\w)/g;

function hasPhoneNumber(text: string): boolean {
  for (const candidate of text.replace(ISO_DATE_TIME, ' ').match(PHONE_CANDIDATE) ?? []) {
    const digits = digitCount(candidate);
    if (candidate.startsWith('+') && digits >= 8 && digits <= 15) return true;
    if (digits >= 10 && digits <= 15) return true;
  }
  return false;
}

export const SENSITIVE_RULES: readonly SensitiveRule[] = [
  regexRule('bosun_credential', 'a Bosun agent key or operator token (bsk_…, bop_…)', /\b(?:bsk|bop)_[A-Za-z0-9_-]{4,}/i),
  regexRule(
    'api_key',
    'a third-party API key or token (sk-…, ghp_…, xoxb-…, AKIA…, Bearer …)',
    /\bsk-[A-Za-z0-9_-]{8,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bxox[abpors]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bBearer\s+[A-Za-z0-9._~+/-]{16,}/,
  ),
  regexRule('private_key', 'a PEM block (-----BEGIN …)', /-----BEGIN/),
  regexRule('hex_secret', 'a hexadecimal string of 32 or more characters', /\b[0-9a-f]{32,}\b/i),
  { name: 'encoded_secret', description: 'a base64 or base64url string of 40 or more characters mixing upper case, lower case and digits', matches: hasEncodedSecret },
  regexRule('email_address', 'an e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/),
  { name: 'phone_number', description: 'a phone number (+ followed by 8-15 digits, or 10-15 digits with or without separators)', matches: hasPhoneNumber },
  regexRule('iban', 'an IBAN-like account number (2 letters, 2 check digits, 11-30 more letters or digits)', /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b/),
];

/** The first rule the text breaks, if any. */
export function findSensitiveContent(text: string): SensitiveRule | undefined {
  return SENSITIVE_RULES.find((rule) => rule.matches(text));
}
