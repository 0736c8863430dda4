import type { ErrorDefinitions } from './definition.js';

/** Workspace documents (docs/workspace.md). */
export const WORKSPACE_ERRORS = {
  precondition_failed: { status: 412, retryable: false, summary: 'If-Match names a version other than the current one (or the document does not exist); read it again and retry with its ETag.' },
  workspace_document_not_found: { status: 404, retryable: false, summary: 'No workspace document with this name.' },
  workspace_document_too_large: { status: 413, retryable: false, summary: 'The document exceeds the size cap per document.' },
  workspace_quota_exceeded: { status: 409, retryable: false, summary: 'The workspace would exceed its total size or document count cap; delete documents first (waiting does not help).' },
} as const satisfies ErrorDefinitions;
