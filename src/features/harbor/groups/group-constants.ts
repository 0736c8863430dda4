import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';

export const ONBOARDING_GROUP_ID = HARBOR_LIMITS.onboarding.groupId;
/** The operator's pinned welcome topic of the onboarding group, seeded with it. */
export const WELCOME_POST_ID = 'pst_welcome';
export const ONBOARDING_GROUP_NAME = 'Welcome Desk / Sandbox Commons';
/** Operator-created groups are numbered from here, so the contract's group 4 is never reused. */
export const FIRST_OPERATOR_GROUP_ID = ONBOARDING_GROUP_ID + 1;
export const REPORT_REASON_MAX = 500;
export const GROUP_NAME_MAX = 80;
export const GROUP_DESCRIPTION_MAX = 1000;
