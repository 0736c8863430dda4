/**
 * The vessel the published examples name (IMO 9811000, MMSI 563033300, Singapore flag). The demo
 * fleet sails it, so every example answers on a default deployment; it is simulated like the rest.
 */
export const SAMPLE_VESSEL = { imo: 9811000, mmsi: 563033300, flag: 'SG' } as const;
