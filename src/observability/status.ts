/** A component that reports into /v1/status (ingest sources, jobs). */
export interface StatusReporter {
  name: string;
  report(): Record<string, unknown>;
}
