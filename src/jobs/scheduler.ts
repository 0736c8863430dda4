import type { Logger } from '../observability/logger.js';
import { iso } from '../clock.js';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

export interface JobStatus {
  name: string;
  every_seconds: number;
  last_run_at: string | null;
  last_result: unknown;
  last_error: string | null;
  runs: number;
}

/** Runs jobs on an interval, one run at a time per job; `runNow` is the same path, on demand. */
export function createScheduler(logger: Logger, now: () => number) {
  const jobs = new Map<string, { job: Job; timer: NodeJS.Timeout | null; running: Promise<void> | null; status: JobStatus }>();

  async function execute(name: string): Promise<void> {
    const slot = jobs.get(name);
    if (!slot) throw new Error(`no job ${name}`);
    if (slot.running) return slot.running;
    slot.running = (async () => {
      try {
        slot.status.last_result = await slot.job.run();
        slot.status.last_error = null;
      } catch (err) {
        slot.status.last_error = (err as Error).message;
        logger.error({ err, job: name }, 'job failed');
      } finally {
        slot.status.runs += 1;
        slot.status.last_run_at = iso(now());
        slot.running = null;
      }
    })();
    return slot.running;
  }

  return {
    add(job: Job): void {
      jobs.set(job.name, {
        job,
        timer: null,
        running: null,
        status: { name: job.name, every_seconds: job.everyMs / 1000, last_run_at: null, last_result: null, last_error: null, runs: 0 },
      });
    },
    start(): void {
      for (const [name, slot] of jobs) {
        if (slot.timer) continue;
        slot.timer = setInterval(() => void execute(name), slot.job.everyMs);
        slot.timer.unref();
      }
    },
    runNow: execute,
    async stop(): Promise<void> {
      for (const slot of jobs.values()) {
        if (slot.timer) clearInterval(slot.timer);
        slot.timer = null;
      }
      await Promise.all([...jobs.values()].flatMap((s) => (s.running ? [s.running] : [])));
    },
    statuses: (): JobStatus[] => [...jobs.values()].map((s) => ({ ...s.status })),
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;
