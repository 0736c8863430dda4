import { DAY, iso } from '../../../platform/clock.js';
import { round } from '../../../platform/stats.js';

/** The budget guard of the routes section: an agent's spend over a window, its rate and when a budget runs out. Pure. */

export interface UsageLine {
  operation_id: string;
  day: string;
  calls: number;
  cost_milli: number;
}

export interface Allowance {
  cost_units_per_day: number | null;
  cost_units_per_month: number | null;
  enforced: boolean;
  note: string;
}

export interface BudgetWindow {
  agentId: string;
  days: number;
  now: number;
  /** Start of the window: midnight UTC, days − 1 days before today's. */
  start: number;
  budget: number | null;
  /** When the agent registered: time before it is no spending pace (it could not spend). */
  agentSince: number;
}

export function budgetView(window: BudgetWindow, lines: readonly UsageLine[], allowance: Allowance) {
  const { agentId, days, now, start, budget, agentSince } = window;
  let calls = 0;
  let milli = 0;
  const byOp = new Map<string, { operation_id: string; calls: number; cost_milli: number }>();
  const byDay = new Map<string, { calls: number; cost_milli: number }>();
  for (const l of lines) {
    calls += l.calls;
    milli += l.cost_milli;
    const op = byOp.get(l.operation_id) ?? { operation_id: l.operation_id, calls: 0, cost_milli: 0 };
    op.calls += l.calls;
    op.cost_milli += l.cost_milli;
    byOp.set(l.operation_id, op);
    const d = byDay.get(l.day) ?? { calls: 0, cost_milli: 0 };
    d.calls += l.calls;
    d.cost_milli += l.cost_milli;
    byDay.set(l.day, d);
  }
  const elapsedDays = (now - start) / DAY;
  const spend = milli / 1000;
  // the pace runs from when the agent began to spend: the latest of the window's start, its registration and the
  // start of its first day with spend (an agent registered minutes ago spends at a pace of minutes, not of days)
  const firstSpendDay = lines.length === 0 ? now : Math.min(...lines.map((l) => Date.parse(`${l.day}T00:00:00Z`)));
  const rateSince = Math.min(now, Math.max(start, agentSince, firstSpendDay));
  const rateDays = (now - rateSince) / DAY;
  const rate = rateDays > 0 ? spend / rateDays : calls === 0 ? 0 : null;
  const flags: string[] = [];
  if (calls === 0) flags.push('no_spend_in_window');
  if (budget === null) flags.push('no_budget_limit');
  let projection: { remaining_units: number; reached: boolean; days_to_budget: number | null; reach_at: string | null } | null = null;
  if (budget !== null) {
    const remaining = round(budget - spend, 3);
    const reached = remaining <= 0;
    const daysTo = reached ? 0 : rate !== null && rate > 0 ? remaining / rate : null;
    // days to 4 places (about 9 s): a pace of minutes does not round to 0 days
    projection = {
      remaining_units: remaining,
      reached,
      days_to_budget: daysTo === null ? null : round(daysTo, 4),
      reach_at: reached ? iso(now) : daysTo === null ? null : iso(now + Math.round(daysTo * DAY)),
    };
  }
  return {
    data: {
      agent_id: agentId,
      window: { days, since: iso(start), until: iso(now), elapsed_days: round(elapsedDays, 4), rate_since: iso(rateSince), rate_days: round(rateDays, 4) },
      spend: { calls, cost_units: spend, cost_milli_units: milli },
      rate: { cost_units_per_day: rate === null ? null : round(rate), calls_per_day: rateDays > 0 ? round(calls / rateDays, 2) : calls === 0 ? 0 : null },
      budget: { budget_units: budget, source: budget === null ? ('none' as const) : ('budget_units' as const), allowance },
      projection,
      operations: [...byOp.values()].map((o) => ({ ...o, cost_units: o.cost_milli / 1000 })).sort((a, b) => b.cost_milli - a.cost_milli || a.operation_id.localeCompare(b.operation_id)),
      days: [...byDay].map(([day, d]) => ({ day, calls: d.calls, cost_units: d.cost_milli / 1000 })).sort((a, b) => a.day.localeCompare(b.day)),
    },
    qualityFlags: flags,
  };
}
