import type { ErrorDefinitions } from './definition.js';

/** The events API (GET /v1/events/{event_id}, a Bosun extension). */
export const EVENTS_ERRORS = {
  event_not_found: { status: 404, retryable: false, summary: 'No event has this id, or it is not visible to you yet (events newer than the preview delay need vessels:live).' },
} as const satisfies ErrorDefinitions;
