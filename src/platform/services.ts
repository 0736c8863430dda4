/**
 * Every service a handler or a command can reach (`CallContext.services`, a command's `ctx.services`).
 * Declared empty here, below every feature, so that a feature types its handlers without importing the
 * others: src/features/services.ts, above them all, adds each area's services by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging (src/features/services.ts)
export interface Services {}
