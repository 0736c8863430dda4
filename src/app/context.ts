import type { Redis } from 'ioredis';
import type { Bus } from '../bus/bus.js';
import type { CatalogView } from '../catalog/catalog.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { AgentsService } from '../features/agents/agents-service.js';
import type { AuditService } from '../features/audit/audit-service.js';
import type { HarborServices } from '../features/harbor/harbor-services.js';
import type { CursorCodec } from '../http/cursor-codec.js';
import type { OperatorService } from '../features/operator/operator-service.js';
import type { PaymentsService } from '../features/payments/payments-service.js';
import type { TelemetryService } from '../features/telemetry/telemetry-service.js';
import type { VesselsService } from '../features/vessels/vessels-service.js';
import type { FleetService } from '../fleet/fleet-service.js';
import type { Limiter } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import type { Store } from '../store/db.js';
import type { Logger } from './logger.js';

/** A component that reports into /v1/status (ingest sources, jobs). */
export interface StatusReporter {
  name: string;
  report(): Record<string, unknown>;
}

/** Every service; the harbor's come from createHarborServices. */
export interface Services extends HarborServices {
  audit: AuditService;
  agents: AgentsService;
  operator: OperatorService;
  telemetry: TelemetryService;
  payments: PaymentsService;
  fleet: FleetService;
  vessels: VesselsService;
  /** Signs and opens the pagination cursors of this app (its secret). */
  cursors: CursorCodec;
}

export interface AppContext {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  redis: Redis | null;
  /** Publish/subscribe between components and processes (Redis when configured). */
  bus: Bus;
  limiter: Limiter;
  catalog: CatalogView;
  services: Services;
  startedAt: number;
  statusReporters: StatusReporter[];
  /** Extra limit policies attached to operations by whoever embeds Bosun (see createBosun). */
  ratePolicyOverrides: Readonly<Record<string, readonly LimitPolicyName[]>>;
}
