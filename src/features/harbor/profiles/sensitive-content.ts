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
