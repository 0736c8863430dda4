import {
  assembleErrorTables,
  BILLING_ERRORS,
  COMMON_ERRORS,
  EVENTS_ERRORS,
  EXCHANGE_ERRORS,
  FEEDBACK_ERRORS,
  HARBOR_ERRORS,
  MCP_ERRORS,
  RESOURCE_INFRA_ERRORS,
  ROUTES_ERRORS,
  VESSEL_SERVICES_ERRORS,
  WORKSPACE_ERRORS,
  type ErrorDefinition,
} from './error-codes.js';

export { HARBOR_ERROR_CODES } from './error-codes.js';

/**
 * The error model: every error Bosun answers with has a stable code from this table, assembled from the codes
 * each area declares (src/platform/error-codes.ts). The HTTP status and retryability come from the code, never
 * from message text.
 */
const definitions = assembleErrorTables(
  COMMON_ERRORS,
  ROUTES_ERRORS,
  EVENTS_ERRORS,
  HARBOR_ERRORS,
  EXCHANGE_ERRORS,
  BILLING_ERRORS,
  RESOURCE_INFRA_ERRORS,
  MCP_ERRORS,
  FEEDBACK_ERRORS,
  WORKSPACE_ERRORS,
  VESSEL_SERVICES_ERRORS,
);

export type ErrorCode = keyof typeof definitions;
export const ERROR_CODES = definitions as Record<ErrorCode, ErrorDefinition>;

export interface ErrorDetail {
  code: ErrorCode;
  message: string;
  field?: string;
  retryable: boolean;
  docs?: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly options: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message ?? ERROR_CODES[code].summary);
    this.status = ERROR_CODES[code].status;
    this.retryable = ERROR_CODES[code].retryable;
  }

  toDetail(): ErrorDetail {
    const detail: ErrorDetail = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.options.field) detail.field = this.options.field;
    return detail;
  }
}
