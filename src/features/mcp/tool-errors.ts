import { BODY_ARGUMENT } from './tools.js';

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
  json: unknown;
}

/**
 * The name a field of an HTTP error has among the tool's arguments: `query.limit` and `path.vsl_id`
 * are `arguments.limit` and `arguments.vsl_id`; `body.title` is `arguments.body.title`.
 */
export function argumentField(field: string): string {
  const [place, ...rest] = field.split('.');
  if ((place === 'query' || place === 'path' || place === 'params' || place === 'querystring') && rest.length) return ['arguments', ...rest].join('.');
  if (place === 'body') return ['arguments', BODY_ARGUMENT, ...rest].join('.');
  return field;
}

const FIELD_IN_TEXT = /\b(query|path|params|body)((?:\.[A-Za-z0-9_-]+)+)/g;

/**
 * An operation's error answer as the tool caller sees it: every field and message names the tool's
 * arguments instead of the HTTP query, path and body (a success answer is returned unchanged).
 */
export function inToolTerms<A extends Answer>(answer: A): A {
  const envelope = answer.json as { errors?: Array<{ field?: unknown; message?: unknown }> } | null;
  if (answer.status < 400 || !envelope || !Array.isArray(envelope.errors)) return answer;
  const rename = (text: string) => text.replace(FIELD_IN_TEXT, (_match, place: string, rest: string) => argumentField(`${place}${rest}`));
  const errors = envelope.errors.map((e) => ({
    ...e,
    ...(typeof e.field === 'string' ? { field: argumentField(e.field) } : {}),
    ...(typeof e.message === 'string' ? { message: rename(e.message) } : {}),
  }));
  const json = { ...envelope, errors };
  return { ...answer, json, text: JSON.stringify(json) };
}
