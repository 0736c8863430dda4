import type { ErrorDefinitions } from './definition.js';

/** The resource_infra layer (docs/resource-infra.md). */
export const RESOURCE_INFRA_ERRORS = {
  ingest_in_progress: { status: 409, retryable: true, summary: 'Another resource_infra ingest holds the ingest lock; retry when it has finished (or once its lease lapses, when it stopped).' },
} as const satisfies ErrorDefinitions;
