/** Argument names whose values are credentials or secrets, at any depth. */
const SENSITIVE_NAME = /key|token|secret|passw|passphrase|authori[sz]ation|credential|signature|cookie|session|otp/i;
const REDACTED = '[redacted]';
/** Longer text is cut in the audit: it shows what was asked, not the content. */
const TEXT_CAP = 120;

function redactValue(name: string, value: unknown, depth: number): unknown {
  if (SENSITIVE_NAME.test(name)) return REDACTED;
  if (typeof value === 'string') return value.length > TEXT_CAP ? `${value.slice(0, TEXT_CAP)}… (${value.length} characters)` : value;
  if (Array.isArray(value)) return depth > 4 ? REDACTED : value.map((item) => redactValue('', item, depth + 1));
  if (typeof value === 'object' && value !== null) {
    if (depth > 4) return REDACTED;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(k, v, depth + 1)]));
  }
  return value;
}

/**
 * The arguments of a tool call as the dispatch audit keeps them: credentials and secrets by name
 * replaced, long text cut, and the body of a write (anything but GET) reduced to its field names,
 * since writes carry private content (messages, profiles, requests) the operator has no need to read
 * in an audit of calls.
 */
export function redactArguments(args: unknown, options: { write: boolean; bodyArgument: string | null }): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { arguments: args === undefined ? null : REDACTED };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (name === options.bodyArgument && options.write) {
      out[name] = typeof value === 'object' && value !== null && !Array.isArray(value) ? { redacted: 'write body', fields: Object.keys(value).sort() } : REDACTED;
    } else out[name] = redactValue(name, value, 0);
  }
  return out;
}
