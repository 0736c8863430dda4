import type { ErrorDefinitions } from './definition.js';

/** Feedback tickets and vessel corrections (docs/feedback.md). */
export const FEEDBACK_ERRORS = {
  feedback_ticket_not_found: { status: 404, retryable: false, summary: 'No feedback ticket with this ticket_id among your own tickets.' },
  feedback_daily_limit: { status: 429, retryable: true, summary: 'Feedback tickets per agent per 24 hours reached; wait for Retry-After seconds.' },
  feedback_state_invalid: { status: 409, retryable: false, summary: 'The feedback ticket state does not allow this step.' },
  correction_markup_refused: {
    status: 400,
    retryable: false,
    summary: 'A corrected name looks like HTML or XML markup (a tag such as <img or a character reference such as &lt;); names are plain text (docs/decisions/073).',
  },
} as const satisfies ErrorDefinitions;
