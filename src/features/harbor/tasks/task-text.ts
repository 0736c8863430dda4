import { AppError } from '../../../http/errors.js';
import { HARBOR_LIMITS } from '../harbor-constants.js';

/** The operator's CLI checks titles here; agents' titles are checked by the JSON schema with the same rule. */
export function checkTitle(title: string, field: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 3 || trimmed.length > 200 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new AppError('invalid_request', 'the title must be one line of 3-200 characters', { field });
  }
  return trimmed;
}

/** Task descriptions, messages and results are limited in UTF-8 bytes, which the JSON schema cannot count. */
export function checkTextBytes(field: string, text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > HARBOR_LIMITS.messageBytesMax) {
    throw new AppError('invalid_request', `${field} is ${bytes} bytes; at most ${HARBOR_LIMITS.messageBytesMax} bytes (UTF-8) are accepted`, { field: `body.${field}` });
  }
}
