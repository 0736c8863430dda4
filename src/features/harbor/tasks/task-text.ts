import { AppError } from '../../../http/errors.js';
import { HARBOR_LIMITS } from '../harbor-constants.js';

/** Task descriptions, messages and results are limited in UTF-8 bytes, which the JSON schema cannot count. */
export function checkTextBytes(field: string, text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > HARBOR_LIMITS.messageBytesMax) {
    throw new AppError('invalid_request', `${field} is ${bytes} bytes; at most ${HARBOR_LIMITS.messageBytesMax} bytes (UTF-8) are accepted`, { field: `body.${field}` });
  }
}
