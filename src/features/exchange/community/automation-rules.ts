import { iso, parseIso } from '../../../platform/clock.js';
import type { JobStatus } from '../../../jobs/scheduler.js';

/**
 * The alert rules over automation health (decision 043): pure functions of the scheduler's recorded
 * job state and the time, so the same statuses always give the same alerts.
 */
export const ALERT_RULES = [
  { condition: 'job_failing', severity: 'warning', description: 'The last run of a job threw (1 or 2 consecutive failed runs).' },
  { condition: 'job_failing', severity: 'critical', description: 'A job failed 3 or more consecutive runs.' },
  { condition: 'job_stuck', severity: 'critical', description: 'A run has been going on for more than 2 intervals (at least 1 minute).' },
  {
    condition: 'job_late',
    severity: 'warning',
    description: 'With the scheduler running, a job has not started for more than 2 intervals (at least 1 minute) since its last start or since it was scheduled.',
  },
] as const;

export const CRITICAL_CONSECUTIVE_FAILURES = 3;
const MIN_GRACE_MS = 60_000;

export type JobHealth = 'ok' | 'never_run' | 'failing' | 'stuck' | 'late';
export type AlertSeverity = 'warning' | 'critical';

export interface Alert {
  id: string;
  condition: 'job_failing' | 'job_stuck' | 'job_late';
  job: string;
  severity: AlertSeverity;
  state: 'firing';
  since: string;
  message: string;
}

const tolerance = (job: JobStatus) => Math.max(2 * job.every_seconds * 1000, MIN_GRACE_MS);

function stuckSince(job: JobStatus, now: number): number | null {
  if (!job.running || !job.last_started_at) return null;
  const started = parseIso(job.last_started_at);
  return now - started > tolerance(job) ? started : null;
}

/** The instant from which the job is late: its last start (or scheduling) plus the tolerance; null when not late. */
function lateSince(job: JobStatus, now: number): number | null {
  if (!job.scheduled_since || job.running) return null;
  const reference = Math.max(parseIso(job.scheduled_since), job.last_started_at ? parseIso(job.last_started_at) : 0);
  const due = reference + tolerance(job);
  return now > due ? due : null;
}

export function jobHealth(job: JobStatus, now: number): JobHealth {
  if (stuckSince(job, now) !== null) return 'stuck';
  if (job.consecutive_failures > 0) return 'failing';
  if (lateSince(job, now) !== null) return 'late';
  return job.runs === 0 ? 'never_run' : 'ok';
}

export function evaluateAlerts(jobs: readonly JobStatus[], now: number): Alert[] {
  const alerts: Alert[] = [];
  for (const job of jobs) {
    const stuck = stuckSince(job, now);
    if (stuck !== null) {
      alerts.push({
        id: `job_stuck:${job.name}`,
        condition: 'job_stuck',
        job: job.name,
        severity: 'critical',
        state: 'firing',
        since: iso(stuck),
        message: `${job.name} has been running since ${iso(stuck)}`,
      });
    }
    if (job.consecutive_failures > 0) {
      const severity: AlertSeverity = job.consecutive_failures >= CRITICAL_CONSECUTIVE_FAILURES ? 'critical' : 'warning';
      alerts.push({
        id: `job_failing:${job.name}`,
        condition: 'job_failing',
        job: job.name,
        severity,
        state: 'firing',
        since: job.last_failure_at ?? iso(now),
        message: `${job.name} failed ${job.consecutive_failures} consecutive run(s); last error: ${job.last_error ?? 'unknown'}`,
      });
    }
    const late = lateSince(job, now);
    if (late !== null) {
      alerts.push({
        id: `job_late:${job.name}`,
        condition: 'job_late',
        job: job.name,
        severity: 'warning',
        state: 'firing',
        since: iso(late),
        message: `${job.name} (every ${job.every_seconds} s) has not started since ${job.last_started_at ?? job.scheduled_since}`,
      });
    }
  }
  const rank = { critical: 0, warning: 1 } as const;
  return alerts.sort((a, b) => rank[a.severity] - rank[b.severity] || a.id.localeCompare(b.id));
}

/** ok without alerts; otherwise the most severe alert's severity. */
export function overallState(alerts: readonly Alert[]): 'ok' | AlertSeverity {
  if (alerts.some((a) => a.severity === 'critical')) return 'critical';
  return alerts.length > 0 ? 'warning' : 'ok';
}
