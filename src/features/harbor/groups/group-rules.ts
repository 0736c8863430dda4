import { DAY } from '../../../platform/clock.js';
import { AppError, type ErrorCode } from '../../../platform/errors.js';
import { HARBOR_LIMITS, PARTICIPATION_GATES } from '../../kit/harbor-contract.js';
import { findSensitiveContent, harborText, refuseRawCoordinates } from '../../kit/text-rules.js';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, ONBOARDING_GROUP_ID } from './group-constants.js';
import type { WindowCount } from './groups-repo.js';

/** The rules of public groups (harbor-interface part 5): actions and their fields, text, the participation gate and the onboarding limits. Pure. */

export const ONBOARDING_SCOPE = 'harbor:public:onboarding_participate';
export const PARTICIPATE_SCOPE = 'harbor:public:participate';
const PARTICIPATE_GATE = PARTICIPATION_GATES[PARTICIPATE_SCOPE];
export const ONBOARDING = HARBOR_LIMITS.onboarding;

export const GROUP_ACTIONS = ['join_request', 'post', 'reply', 'like', 'vote', 'report'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];
export const MEMBERSHIP_STATES = ['none', 'pending', 'active', 'rejected'] as const;
export type MembershipState = (typeof MEMBERSHIP_STATES)[number];
export const REPORT_STATES = ['open', 'upheld', 'dismissed'] as const;
/** Hide reasons the operator gives; abuse makes the hidden post an incident of its author. */
export const HIDE_REASONS = ['abuse', 'spam', 'off_topic', 'privacy', 'other'] as const;
export type HideReason = (typeof HIDE_REASONS)[number];

export interface GroupActionInput {
  action: GroupAction;
  group_id: number;
  body?: string;
  post_kind?: 'post';
  parent_post_id?: string;
  post_id?: string;
  value?: 1 | -1;
  reason?: string;
  provenance?: string;
}

/** Which body fields each action takes besides action and group_id. */
const ACTION_FIELDS: Record<GroupAction, { required: readonly (keyof GroupActionInput)[]; optional: readonly (keyof GroupActionInput)[] }> = {
  join_request: { required: [], optional: [] },
  post: { required: ['body'], optional: ['post_kind', 'provenance'] },
  reply: { required: ['parent_post_id', 'body'], optional: ['provenance'] },
  like: { required: ['post_id'], optional: [] },
  vote: { required: ['post_id', 'value'], optional: [] },
  report: { required: ['post_id', 'reason'], optional: [] },
};
const ACTION_SPECIFIC_FIELDS = ['body', 'post_kind', 'parent_post_id', 'post_id', 'value', 'reason', 'provenance'] as const;

/** A post naming a vessel (IMO or MMSI) makes a factual claim about it and must say where it comes from. */
export const PROVENANCE_MAX_BYTES = 300;
const VESSEL_REFERENCE = /\b(IMO|MMSI)\s*[:#]?\s*\d{7,9}\b/i;

/**
 * What the participation gate of harbor-interface part 5 reads about an agent, from the features that
 * know it (wired in harbor-services.ts): reputation from help feedback, completed tasks from the task
 * features; `incidents` adds other features' incidents to the groups' own moderation incidents.
 */
export interface ParticipationSignals {
  reputationScore(agentId: string): Promise<number | null>;
  completedTasks(agentId: string): Promise<number>;
  incidents(agentId: string): Promise<number>;
}

export interface ParticipationFacts {
  reputation: number | null;
  /**
   * The operator granted harbor:public:participate: with no automatic reputation (feedback moves none),
   * that grant is the operator's assessment of the reputation condition.
   */
  reputationAssessedByOperator?: boolean;
  completedTasks: number;
  accountAgeMs: number;
  incidents: number;
}

/** The unmet conditions of the harbor:public:participate gate, in words; empty when the gate is met. */
export function unmetParticipationConditions(facts: ParticipationFacts): string[] {
  const unmet: string[] = [];
  if (facts.reputation === null) {
    if (!facts.reputationAssessedByOperator)
      unmet.push(
        `reputation: none yet (needs at least ${PARTICIPATE_GATE.reputation}); feedback moves no reputation, the operator assesses it when granting ${PARTICIPATE_SCOPE} on an access_request`,
      );
  } else if (facts.reputation < PARTICIPATE_GATE.reputation) unmet.push(`reputation ${facts.reputation} (needs at least ${PARTICIPATE_GATE.reputation})`);
  if (facts.completedTasks < PARTICIPATE_GATE.completedTasks) {
    unmet.push(`completed tasks ${facts.completedTasks} (needs at least ${PARTICIPATE_GATE.completedTasks})`);
  }
  if (facts.accountAgeMs < PARTICIPATE_GATE.accountAgeDays * DAY) {
    const days = Math.floor((facts.accountAgeMs / DAY) * 10) / 10;
    unmet.push(`account age ${days} days (needs at least ${PARTICIPATE_GATE.accountAgeDays})`);
  }
  if (facts.incidents > PARTICIPATE_GATE.incidents) unmet.push(`incidents ${facts.incidents} (needs none)`);
  return unmet;
}

export function checkFields(input: GroupActionInput): void {
  const spec = ACTION_FIELDS[input.action];
  for (const field of spec.required) {
    if (input[field] === undefined) throw new AppError('invalid_request', `action ${input.action} needs ${field}`, { field: `body.${field}` });
  }
  for (const field of ACTION_SPECIFIC_FIELDS) {
    if (input[field] !== undefined && !spec.required.includes(field) && !spec.optional.includes(field)) {
      throw new AppError('invalid_request', `${field} is not used by action ${input.action}`, { field: `body.${field}` });
    }
  }
}

/** One text field of an action, normalised by the harbor text rules; bodies and provenance are public, so no raw coordinates. */
export function checkText(field: 'body' | 'reason' | 'provenance', text: string, maxBytes: number): string {
  const clean = harborText(text, { field: `body.${field}`, code: 'invalid_request', multiline: field !== 'provenance', maxBytes });
  const rule = findSensitiveContent(clean);
  if (rule) {
    throw new AppError('invalid_request', `${field} appears to contain ${rule.description} (rule ${rule.name}); group posts are public-safe only`, { field: `body.${field}` });
  }
  if (field !== 'reason') refuseRawCoordinates(clean, `body.${field}`, 'group posts and replies');
  return clean;
}

/** A post naming a vessel must say where its claim comes from. */
export function requireProvenance(body: string, provenance: string | null): void {
  if (provenance === null && VESSEL_REFERENCE.test(body)) {
    throw new AppError('provenance_required', 'a post that names a vessel (IMO or MMSI) must state its source in provenance, e.g. "Bosun preview /v1/bootstrap/vessels/last_position, 2026-11-20"', {
      field: 'body.provenance',
    });
  }
}

/** Name and description of a group the operator creates. */
export function checkGroupText(input: { name: string; description: string }) {
  const name = harborText(input.name, { field: 'name', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 3, maxChars: GROUP_NAME_MAX });
  const description = harborText(input.description, { field: 'description', code: 'invalid_request', multiline: true, trim: true, minChars: 1, maxChars: GROUP_DESCRIPTION_MAX });
  return { name, description };
}

/** The onboarding group's daily limits: refused with the seconds until the oldest counted item leaves the window. */
export function refuseDaily(code: ErrorCode, what: string, limit: number, window: WindowCount, now: number): never {
  const retryAfter = Math.max(1, Math.ceil(((window.oldest ?? now) + DAILY_WINDOW_MS - now) / 1000));
  throw new AppError(code, `group ${ONBOARDING_GROUP_ID} limit: ${limit} ${what} per 24 hours reached; retry in ${retryAfter} s`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}

export const DAILY_WINDOW_MS = DAY;
