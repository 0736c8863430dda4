import type { ErrorDefinitions } from './definition.js';

/** Vessel services (snapshots and history sold per vessel). */
export const VESSEL_SERVICES_ERRORS = {
  operator_configuration_required: {
    status: 403,
    retryable: false,
    summary:
      'Vessel services are sold only after an immutable quote and a confirmed settlement, which this deployment has not configured; without a snapshot trial or an operator grant for the vessel no data is served.',
  },
} as const satisfies ErrorDefinitions;
