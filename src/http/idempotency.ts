export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What makes two requests "the same": who sent it, to which operation, and what it said. */
export interface IdempotentRequest {
  caller: string;
  method: string;
  path: string;
  body: unknown;
}

/**
 * Where route registration keeps the results of writes sent with an Idempotency-Key, for operations
 * that declare idempotencyKey (implemented by features/idempotency).
 */
export interface IdempotentWrites {
  /** The header's key, undefined when absent; a malformed key is refused. */
  parseKey(header: string | string[] | undefined): string | undefined;
  run<T>(key: string | undefined, request: IdempotentRequest, execute: () => Promise<T>): Promise<{ result: T; replayed: boolean }>;
}
