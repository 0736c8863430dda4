import type { AgentsService } from './agents/agents-service.js';
import type { AuditService } from './audit/audit-service.js';
import type { HarborServices } from './harbor/harbor-services.js';
import type { IdempotencyService } from './idempotency/idempotency-service.js';
import type { MetaService } from './meta/meta-service.js';
import type { PortsService } from './ports/ports-service.js';
import type { OperatorService } from './operator/operator-service.js';
import type { PaymentsService } from './payments/payments-service.js';
import type { TelemetryService } from './telemetry/telemetry-service.js';
import type { VesselsService } from './vessels/vessels-service.js';
import type { FleetService } from '../fleet/fleet-service.js';
import type { CursorCodec } from '../http/cursor-codec.js';

/** Every service a handler can reach (CallContext.services); the harbor's come from createHarborServices. */
export interface Services extends HarborServices {
  audit: AuditService;
  agents: AgentsService;
  operator: OperatorService;
  telemetry: TelemetryService;
  payments: PaymentsService;
  fleet: FleetService;
  vessels: VesselsService;
  meta: MetaService;
  ports: PortsService;
  /** Stored answers of idempotent writes (applied at route registration). */
  idempotency: IdempotencyService;
  /** Signs and opens the pagination cursors of this app (its secret). */
  cursors: CursorCodec;
}
