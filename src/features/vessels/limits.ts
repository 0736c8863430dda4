/** Limits of the vessel operations (documented in the route descriptions and docs/fleet.md). */
export const SEARCH_LIMIT_MAX = 100;
export const WATCHLIST_MAX_IDS = 50;
export const POSITIONS_LIMIT_MAX = 1000;
export const DOWNSAMPLE_MAX_SECONDS = 86_400;
export const POLL_TIMEOUT_MAX = 30;
export const POLL_TIMEOUT_DEFAULT = 20;
export const UPDATES_LIMIT_MAX = 1000;
/** Long polls one agent key may hold open at once. */
export const MAX_CONCURRENT_POLLS = 3;
/** Lookups are kept a day longer than the longest popularity window. */
export const LOOKUP_RETENTION_DAYS = 8;
export const PREVIEW_LABEL_RETENTION_DAYS = 30;
