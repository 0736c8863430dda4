import type { Logger } from '../observability/logger.js';
import { iso } from '../platform/clock.js';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

export interface JobStatus {
  name: string;
  every_seconds: number;
  /** When the last run finished. */
  last_run_at: string | null;
  last_result: unknown;
  last_error: string | null;
  runs: number;
  /** When the last (or the current) run started. */
  last_started_at: string | null;
  last_duration_ms: number | null;
  running: boolean;
  /** Runs that threw, in total and since the last successful run. */
  failures: number;
  consecutive_failures: number;
  last_failure_at: string | null;
  last_success_at: string | null;
  /** When the interval timer fires next; null while the scheduler is not started (one-shot use, tests). */
  next_run_at: string | null;
  /** When the interval timer was started; null while it is not. */
  scheduled_since: string | null;
}

interface Slot {
  job: Job;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  status: JobStatus;
  /** The instant the interval timer was started; the timer fires at startedAt + k·everyMs. */
  timerStartedAt: number | null;
}

/** Runs jobs on an interval, one run at a time per job; `runNow` is the same path, on demand. Each run's start, duration and outcome are recorded. */
export function createScheduler(logger: Logger, now: () => number) {
  const jobs = new Map<string, Slot>();

  async function execute(name: string): Promise<void> {
    const slot = jobs.get(name);
    if (!slot) throw new Error(`no job ${name}`);
    if (slot.running) return slot.running;
    const started = now();
    slot.status.last_started_at = iso(started);
    slot.status.running = true;
    slot.running = (async () => {
      try {
        slot.status.last_result = await slot.job.run();
        slot.status.last_error = null;
        slot.status.consecutive_failures = 0;
        slot.status.last_success_at = iso(now());
      } catch (err) {
        slot.status.last_error = (err as Error).message;
        slot.status.failures += 1;
        slot.status.consecutive_failures += 1;
        slot.status.last_failure_at = iso(now());
        logger.error({ err, job: name }, 'job failed');
      } finally {
        const finished = now();
        slot.status.runs += 1;
        slot.status.last_run_at = iso(finished);
        slot.status.last_duration_ms = Math.max(0, finished - started);
        slot.status.running = false;
        slot.running = null;
      }
    })();
    return slot.running;
  }

  function nextRunAt(slot: Slot): string | null {
    if (slot.timerStartedAt === null) return null;
    const elapsed = Math.max(0, now() - slot.timerStartedAt);
    return iso(slot.timerStartedAt + (Math.floor(elapsed / slot.job.everyMs) + 1) * slot.job.everyMs);
  }

  return {
    add(job: Job): void {
      jobs.set(job.name, {
        job,
        timer: null,
        running: null,
        timerStartedAt: null,
        status: neverRun(job),
      });
    },
    start(): void {
      for (const [name, slot] of jobs) {
        if (slot.timer) continue;
        slot.timerStartedAt = now();
        slot.timer = setInterval(() => void execute(name), slot.job.everyMs);
        slot.timer.unref();
      }
    },
    runNow: execute,
    async stop(): Promise<void> {
      for (const slot of jobs.values()) {
        if (slot.timer) clearInterval(slot.timer);
        slot.timer = null;
        slot.timerStartedAt = null;
      }
      await Promise.all([...jobs.values()].flatMap((s) => (s.running ? [s.running] : [])));
    },
    /** Whether the interval timers run (createBosun with background; never in one-shot commands). */
    started: (): boolean => [...jobs.values()].some((s) => s.timer !== null),
    statuses: (): JobStatus[] => [...jobs.values()].map((s) => ({ ...s.status, next_run_at: nextRunAt(s), scheduled_since: s.timerStartedAt === null ? null : iso(s.timerStartedAt) })),
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;

/** A job's status before its first run. */
export function neverRun(job: Pick<Job, 'name' | 'everyMs'>): JobStatus {
  return {
    name: job.name,
    every_seconds: job.everyMs / 1000,
    last_run_at: null,
    last_result: null,
    last_error: null,
    runs: 0,
    last_started_at: null,
    last_duration_ms: null,
    running: false,
    failures: 0,
    consecutive_failures: 0,
    last_failure_at: null,
    last_success_at: null,
    next_run_at: null,
    scheduled_since: null,
  };
}
