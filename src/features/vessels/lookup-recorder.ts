import type { Clock } from '../../platform/clock.js';
import type { VesselState } from '../../fleet/fleet-service.js';
import { cleanLabel } from '../../http/declared-identity.js';
import { redactIp } from '../audit/redact-ip.js';
import type { LookupRecord, PreviewLabelRecord, VesselsRepo } from './vessels-repo.js';

/** Lookup records (or preview labels) buffered before a write starts on its own; otherwise written every RECORD_FLUSH_MS in background mode. */
const RECORD_BATCH = 500;
const RECORD_FLUSH_MS = 5_000;

/** Reads are hot paths: their lookup records and preview labels are buffered and written in batches. */
export function createLookupRecorder(deps: { repo: Pick<VesselsRepo, 'recordLookups' | 'recordPreviewLabels'>; clock: Clock; onError?: (err: unknown, context: string) => void }) {
  const { repo, clock } = deps;
  let pendingLookups: LookupRecord[] = [];
  let pendingLabels: PreviewLabelRecord[] = [];
  let timer: NodeJS.Timeout | null = null;

  async function flush(): Promise<void> {
    const lookups = pendingLookups;
    const labels = pendingLabels;
    pendingLookups = [];
    pendingLabels = [];
    await Promise.all([repo.recordLookups(lookups), repo.recordPreviewLabels(labels)]);
  }
  const flushInBackground = () => void flush().catch((err) => deps.onError?.(err, 'vessel lookup records or preview labels not written'));

  return {
    flush,

    /** Writes buffered records every few seconds (serve). */
    start(): void {
      if (timer) return;
      timer = setInterval(flushInBackground, RECORD_FLUSH_MS);
      timer.unref();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },

    recordLookups(vessels: VesselState[], agentId: string, operationId: string): void {
      const at = clock.now();
      for (const v of vessels) pendingLookups.push({ vsl_id: v.vslId, agent_id: agentId, operation_id: operationId, at });
      if (pendingLookups.length >= RECORD_BATCH) flushInBackground();
    },

    /** Self-declared labels of a preview call; unverified, never used for access. */
    recordPreviewLabels(operationId: string, name: string | undefined, vendor: string | undefined, ip: string): void {
      const agentName = cleanLabel(name);
      const agentVendor = cleanLabel(vendor);
      if (agentName === null && agentVendor === null) return;
      pendingLabels.push({ at: clock.now(), operation_id: operationId, agent_name: agentName, agent_vendor: agentVendor, ip: redactIp(ip) });
      if (pendingLabels.length >= RECORD_BATCH) flushInBackground();
    },
  };
}
export type LookupRecorder = ReturnType<typeof createLookupRecorder>;
