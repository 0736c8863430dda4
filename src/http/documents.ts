import type { DocumentForms } from '../catalog/types.js';

/**
 * Content negotiation of discovery documents (docs/decisions/010-discovery-documents.md): the envelope
 * by default; the bare document at the sibling path, or when Accept names the document's own media
 * type. Returns the Content-Type of the bare answer, or null for the envelope.
 */
export function bareDocumentType(forms: DocumentForms, pathname: string, accept: string | undefined): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (forms.bareMediaType && accept && acceptsMediaType(accept, forms.bareMediaType)) return `${forms.bareMediaType}; charset=utf-8`;
  if (path === forms.barePath) return 'application/json; charset=utf-8';
  return null;
}

/** True when the Accept header lists `mediaType` explicitly with a non-zero quality. */
function acceptsMediaType(accept: string, mediaType: string): boolean {
  return accept.split(',').some((part) => {
    const [type, ...params] = part
      .trim()
      .split(';')
      .map((p) => p.trim().toLowerCase());
    if (type !== mediaType) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
