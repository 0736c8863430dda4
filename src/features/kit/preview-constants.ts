import { LIMIT_POLICIES } from '../../limits/policies.js';

/** core-interface part 8: the anonymous preview. The rate windows live in LIMIT_POLICIES.anonymous_preview. */
export const PREVIEW = {
  apiKeyRequired: false,
  positionDelaySeconds: 50_400,
  maxSearchResults: 5,
  minuteLimit: LIMIT_POLICIES.anonymous_preview.windows.find((w) => w.name === 'minute')!.limit,
  dailyLimit: LIMIT_POLICIES.anonymous_preview.windows.find((w) => w.name === 'day')!.limit,
  limitScope: 'per identity and IP address, per endpoint',
  premiumAccess: 'none; registration does not grant premium positions',
} as const;
