import type { TelemetryService } from '../telemetry/telemetry-service.js';
import type { UsageMeter } from './usage-meter.js';

/**
 * The telemetry service the HTTP layer records every answered request into, also feeding the usage
 * meter: the ledger is kept whether or not request telemetry is switched on.
 */
export function withUsageMetering(telemetry: TelemetryService, meter: UsageMeter): TelemetryService {
  return {
    ...telemetry,
    record(row) {
      meter.record(row);
      telemetry.record(row);
    },
  };
}
