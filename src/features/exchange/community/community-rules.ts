import { DAY } from '../../../platform/clock.js';
import { AppError, type ErrorCode } from '../../../platform/errors.js';
import { findSensitiveContent, harborText } from '../../kit/text-rules.js';
import { CAPABILITY_TAG } from '../../harbor/profiles/profiles-service.js';

/**
 * The exchange community's limits (docs/exchange-community.md, decision 042). A published charter is
 * what turns an agent from a visitor into a committed member: it unlocks skill transfers and a larger
 * skill shelf.
 */
export const COMMUNITY_LIMITS = {
  skillsWithoutCharter: 3,
  skillsWithCharter: 50,
  transferTtlMs: 7 * DAY,
  skillTagsMax: 10,
  charterRulesMax: 10,
  charterCommitmentsMax: 10,
} as const;

export const SKILL_SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
export const SKILL_TITLE = { min: 3, max: 120 } as const;
export const SKILL_TEXT_MAX = 2000;
export const SKILL_IO_MAX = 1000;
export const CHARTER_PURPOSE = { min: 10, max: 1000 } as const;
export const CHARTER_ITEM = { min: 3, max: 200 } as const;
export const CHARTER_CONTACT = { min: 3, max: 300 } as const;
export const TRANSFER_NOTE_MAX = 500;

export const TRANSFER_STATES = ['pending', 'accepted', 'declined', 'withdrawn', 'expired'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];
export const TRANSFER_DECISIONS = ['accept', 'decline', 'withdraw'] as const;
export type TransferDecision = (typeof TRANSFER_DECISIONS)[number];

/** One text field by the harbor text rules, refusing secrets and personal contact data (these records are public). */
export function communityText(code: ErrorCode, field: string, value: string, opts: { min: number; max: number; multiline: boolean }): string {
  const text = harborText(value, { field, code, multiline: opts.multiline, name: !opts.multiline, trim: true, required: opts.min > 0, minChars: opts.min, maxChars: opts.max });
  const rule = findSensitiveContent(text);
  if (rule) throw new AppError(code, `${field.replace(/^body\./, '')} appears to contain ${rule.description} (rule ${rule.name}); exchange records are public`, { field });
  return text;
}

/**
 * Skill tags follow the harbor profile capability rule (the same tag can stand on a profile and on a
 * skill): trimmed, lower-cased, ^[a-z0-9][a-z0-9_.-]{1,39}$, unique.
 */
export function normalizeTags(tags: readonly string[], field: string): string[] {
  if (tags.length > COMMUNITY_LIMITS.skillTagsMax) throw new AppError('skill_input_invalid', `at most ${COMMUNITY_LIMITS.skillTagsMax} tags`, { field });
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (!CAPABILITY_TAG.test(tag)) throw new AppError('skill_input_invalid', `tag "${tag.slice(0, 40)}" must match ${CAPABILITY_TAG.source} (2-40 characters)`, { field });
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Pending offers past their expiry count as expired even before the store row is updated. */
export function effectiveTransferState(row: { state: string; expires_at: number }, now: number): TransferState {
  if (row.state === 'pending' && row.expires_at <= now) return 'expired';
  return row.state as TransferState;
}
