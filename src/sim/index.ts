/** Public API of the demo fleet simulator (see docs/demo-fleet.md). */
export { backfill, type BackfillOptions, type BackfillProgress, type BackfillResult } from './backfill.js';
export { BACKFILL_RATES, DEMO_SOURCE, DemoFleet, LIVE_RATES, type DemoFleetOptions, type EmissionRates, type SimVessel } from './fleet.js';
export { DemoFeedSource } from './live-source.js';
export { backfillWindow, createDemoFeed, newestSimulatedObservation, type DemoFeedOptions } from './start.js';
