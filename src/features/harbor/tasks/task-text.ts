import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { harborText } from '../../kit/text-rules.js';

/** Task titles (agents' and the operator's CLI): one line of 3-200 characters, no invisible formatting, trimmed. */
export function checkTitle(title: string, field: string): string {
  return harborText(title, { field, code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 3, maxChars: 200 });
}

/** Task descriptions, messages and results: multi-line, at most 4000 bytes (UTF-8); returned normalised (LF line endings). */
export function checkTextBytes(field: string, text: string): string {
  return harborText(text, { field: field.includes('.') ? field : `body.${field}`, code: 'invalid_request', multiline: true, maxBytes: HARBOR_LIMITS.messageBytesMax });
}
