import type { AgentPrincipal } from '../../access/principals.js';
import type { CatalogView } from '../../catalog/catalog.js';
import type { Clock } from '../../platform/clock.js';
import { DAY } from '../../platform/clock.js';
import type { PaymentRail } from '../../platform/config.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import { LIMIT_POLICIES } from '../../limits/policies.js';
import { fromMilli, utcDay, type UsageMeter } from './usage-meter.js';
import type { UsageRepo } from './usage-repo.js';

/** Ledger lines are kept this many days (the current and the previous year's same month stay comparable). */
export const USAGE_RETENTION_DAYS = 400;

export const BILLING_PERIODS = ['today', 'week', 'month'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const COST_UNIT = {
  name: 'cost unit',
  meaning:
    'An accounting unit of the work a call costs this service, taken from the catalog cost hint (x-cost-units-hint). Every envelope states in cost_units what the call charged: the hint on success, 0 on any failure and for the free discovery operations. Cost units are metered per agent and operation; they are not money and no call is billed in money.',
  money_value: null,
  charged_on: 'success only; failures charge 0',
  precision: 'sums are exact to 0.001 (kept as integer milli-units)',
} as const;

/** What core-interface 4.2 lists as unavailable at present; the snapshot purchase needs operator configuration. */
export const PAYMENT_AVAILABILITY = { payments: 'unavailable', x402: 'unavailable', wallets: 'unavailable', facilitator: 'unavailable' } as const;
export const SNAPSHOT_PURCHASE = {
  product: 'vessel_snapshot',
  status: 'operator_configuration_required',
  requires: ['an immutable quote (amount, rail and expiry fixed when issued)', 'a confirmed settlement of that quote'],
  voluntary_support: 'a contribution or sponsorship purchases nothing: no vessel snapshot, scope, entitlement, limit or priority',
} as const;

const ALLOWANCE_NOTE =
  'No cost-unit allowance is enforced: usage is metered and shown, never billed. Calls are bounded by the rate limits listed here and by per-operation limits (GET /v1/capabilities/limits).';

interface LineLike {
  operation_id: string;
  day: string;
  calls: number;
  charged_calls: number;
  cost_milli: number;
}

interface OperationUsage {
  operation_id: string;
  calls: number;
  charged_calls: number;
  cost_units: number;
  cost_milli_units: number;
}

/** The first days of today's UTC week (Monday) and month, and today. */
export function periodStarts(now: number): Record<BillingPeriod, string> {
  const today = utcDay(now);
  const mondayOffset = (new Date(now).getUTCDay() + 6) % 7;
  return { today, week: utcDay(now - mondayOffset * DAY), month: `${today.slice(0, 7)}-01` };
}

function summarize(lines: readonly LineLike[], from: string, to: string) {
  const byOperation = new Map<string, OperationUsage>();
  let calls = 0;
  let charged = 0;
  let milli = 0;
  for (const line of lines) {
    if (line.day < from || line.day > to) continue;
    calls += line.calls;
    charged += line.charged_calls;
    milli += line.cost_milli;
    const op = byOperation.get(line.operation_id) ?? { operation_id: line.operation_id, calls: 0, charged_calls: 0, cost_units: 0, cost_milli_units: 0 };
    op.calls += line.calls;
    op.charged_calls += line.charged_calls;
    op.cost_milli_units += line.cost_milli;
    byOperation.set(line.operation_id, op);
  }
  const operations = [...byOperation.values()]
    .map((op) => ({ ...op, cost_units: fromMilli(op.cost_milli_units) }))
    .sort((a, b) => b.cost_milli_units - a.cost_milli_units || b.calls - a.calls || a.operation_id.localeCompare(b.operation_id));
  return { from, to, calls, charged_calls: charged, cost_units: fromMilli(milli), cost_milli_units: milli, operations };
}

/** CAIP-2 identifiers (what x402 version 2 names networks by) of the rail networks operators commonly configure. */
const CAIP2_NETWORKS: Readonly<Record<string, string>> = {
  ethereum: 'eip155:1',
  base: 'eip155:8453',
  'base-sepolia': 'eip155:84532',
  optimism: 'eip155:10',
  arbitrum: 'eip155:42161',
  polygon: 'eip155:137',
  solana: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
};

/** A rail's network as CAIP-2: given as such, or a known name; null for a network x402 cannot name. */
export function caip2Network(network: string): string | null {
  if (/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(network)) return network;
  return CAIP2_NETWORKS[network.toLowerCase()] ?? null;
}

const OPS_CURSOR = /^(today|week|month)\|(\d{4}-\d{2}-\d{2})\|(agent|anonymous|operator)\|([A-Za-z0-9_]{0,64})$/;

export interface BillingDeps {
  usage: UsageRepo;
  meter: UsageMeter;
  clock: Clock;
  catalog: CatalogView;
  cursors: CursorCodec;
  payments: { rails(): readonly PaymentRail[]; intentsEnabled(): boolean };
}

/** Pricing, payment instructions, the unavailable x402/settlement surface and metered usage (docs/billing.md). */
export function createBillingService(deps: BillingDeps) {
  const { usage, meter, clock } = deps;

  function pricing() {
    const operations = deps.catalog.discoverable.map(({ entry }) => ({
      operation_id: entry.operationId,
      method: entry.method,
      path: entry.path,
      section: entry.section,
      access: entry.access,
      stability: entry.stability,
      cost_hint: entry.cost,
      charged_cost_units: entry.free ? 0 : entry.cost,
      free: entry.free === true,
    }));
    return { unit: COST_UNIT, usage_tiers: ['anonymous', 'free'], paid_tiers: [], counts: { operations: operations.length, free: operations.filter((o) => o.free).length }, operations };
  }

  function paymentInstructions(baseUrl: string, siteUrl: string) {
    const intentsEnabled = deps.payments.intentsEnabled();
    return {
      display_only: true as const,
      rails: [...deps.payments.rails()],
      intents_enabled: intentsEnabled,
      settlement: 'manual: the operator reviews every proof; no keys on the server, no automatic settlement or delivery, no guaranteed refund',
      availability: { ...PAYMENT_AVAILABILITY },
      vessel_snapshot_purchase: { ...SNAPSHOT_PURCHASE, requires: [...SNAPSHOT_PURCHASE.requires] },
      links: { rails: `${baseUrl}/v1/payments/rails`, payments_page: `${siteUrl}/payments`, x402_requirements: `${baseUrl}/v1/billing/x402/requirements`, pricing: `${baseUrl}/v1/billing/pricing` },
    };
  }

  function x402Requirements(baseUrl: string, resource?: string) {
    const error = 'x402 payments are unavailable on this service: no facilitator is configured and nothing can be bought (vessel snapshot purchase: operator_configuration_required)';
    const accepts = deps.payments
      .rails()
      .map((rail) => ({ rail, network: caip2Network(rail.network) }))
      .filter((r): r is { rail: PaymentRail; network: string } => r.network !== null)
      .map(({ rail, network }) => ({
        scheme: 'exact',
        network,
        asset: rail.token,
        amount: '0' as const,
        payTo: rail.address,
        maxTimeoutSeconds: 60,
        extra: { available: false as const, status: 'unavailable' as const, purchase_status: 'operator_configuration_required' as const, rail_id: rail.rail_id, reason: error },
      }));
    return {
      available: false as const,
      status: 'unavailable' as const,
      reason: error,
      facilitator: null,
      payment_required:
        accepts.length === 0
          ? null
          : {
              x402Version: 2 as const,
              error,
              resource: {
                url: resource === undefined ? `${baseUrl}/v1/services/vessel-snapshot/read` : resource.startsWith('/') ? `${baseUrl}${resource}` : resource,
                description: 'vessel snapshot read (purchase not offered: operator_configuration_required)',
                mimeType: 'application/json',
              },
              accepts,
            },
      requirement_fields: ['scheme', 'network', 'asset', 'amount', 'payTo', 'maxTimeoutSeconds', 'extra'],
      availability: { ...PAYMENT_AVAILABILITY },
      vessel_snapshot_purchase: { ...SNAPSHOT_PURCHASE, requires: [...SNAPSHOT_PURCHASE.requires] },
    };
  }

  /** x402 verification and transaction submission: refused, nothing recorded, charged or granted. */
  function refuseSettlement(what: 'x402_verify' | 'submit_tx'): never {
    const subject = what === 'x402_verify' ? 'x402 payment verification' : 'transaction submission';
    throw new AppError('settlement_unavailable', `${subject} is unavailable: no payment facilitator is configured on this service; nothing was charged, recorded or granted`);
  }

  function allowance(agent: AgentPrincipal) {
    const policy = LIMIT_POLICIES.agent_default;
    return {
      cost_units_per_day: null,
      cost_units_per_month: null,
      enforced: false as const,
      rate_limits: policy.windows.map((w) => ({ policy: policy.name, window: w.name, calls: w.limit })),
      note: ALLOWANCE_NOTE,
      agent_state: agent.state,
    };
  }

  async function status(agent: AgentPrincipal) {
    await meter.flush();
    const starts = periodStarts(clock.now());
    const since = starts.week < starts.month ? starts.week : starts.month;
    const lines = await usage.agentLines(agent.agentId, since);
    return {
      agent_id: agent.agentId,
      tier: {
        usage_tier: 'free' as const,
        agent_state: agent.state,
        billing: 'metered, not billed',
        description: 'Every registered agent uses the free tier whatever its state (registered, sandbox, trial, trusted, operator approved); there is no paid tier.',
      },
      allowance: allowance(agent),
      usage: {
        today: summarize(lines, starts.today, starts.today),
        week: summarize(lines, starts.week, starts.today),
        month: summarize(lines, starts.month, starts.today),
      },
      unit: COST_UNIT,
      availability: { ...PAYMENT_AVAILABILITY },
    };
  }

  async function ops(query: { period?: BillingPeriod; agent_id?: string; limit?: number; cursor?: string }) {
    await meter.flush();
    const period = query.period ?? 'month';
    const limit = query.limit ?? 50;
    const starts = periodStarts(clock.now());
    const from = starts[period];
    let after: { callerKind: string; agentId: string } | null = null;
    if (query.cursor !== undefined) {
      const m = deps.cursors.read(query.cursor, OPS_CURSOR, 'query.cursor');
      if (m[1] !== period || m[2] !== from) throw new AppError('cursor_invalid', 'the cursor belongs to another period or day; start again without cursor', { field: 'query.cursor' });
      after = { callerKind: m[3]!, agentId: m[4]! };
    }
    const rows = await usage.accounts(from, { after, agentId: query.agent_id, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const ops = await usage.accountOperations(
      from,
      page.map((r) => r.agent_id),
    );
    const accounts = page.map((r) => ({
      caller_kind: r.caller_kind,
      agent_id: r.agent_id === '' ? null : r.agent_id,
      calls: r.calls,
      charged_calls: r.charged_calls,
      cost_units: fromMilli(r.cost_milli),
      cost_milli_units: r.cost_milli,
      operations: ops
        .filter((o) => o.caller_kind === r.caller_kind && o.agent_id === r.agent_id)
        .map((o) => ({ operation_id: o.operation_id, calls: o.calls, cost_units: fromMilli(o.cost_milli), cost_milli_units: o.cost_milli }))
        .sort((a, b) => b.cost_milli_units - a.cost_milli_units || b.calls - a.calls || a.operation_id.localeCompare(b.operation_id)),
    }));
    const last = page.at(-1);
    const next = rows.length > limit && last ? deps.cursors.seal(`${period}|${from}|${last.caller_kind}|${last.agent_id}`) : null;
    return { period, from, to: starts.today, accounts, next_cursor: next };
  }

  async function opsSummary(query: { period?: BillingPeriod }) {
    await meter.flush();
    const period = query.period ?? 'month';
    const starts = periodStarts(clock.now());
    const since = starts.week < starts.month ? starts.week : starts.month;
    const lines = await usage.allLines(since);
    const total = (from: string) => {
      const s = summarize(lines, from, starts.today);
      return { from: s.from, to: s.to, calls: s.calls, charged_calls: s.charged_calls, cost_units: s.cost_units, cost_milli_units: s.cost_milli_units };
    };
    const chosen = summarize(lines, starts[period], starts.today);
    const byCallerKind = ['agent', 'anonymous', 'operator'].map((kind) => {
      const s = summarize(
        lines.filter((l) => l.caller_kind === kind),
        starts[period],
        starts.today,
      );
      return { caller_kind: kind, calls: s.calls, cost_units: s.cost_units, cost_milli_units: s.cost_milli_units };
    });
    const days = [...new Set(lines.filter((l) => l.day >= starts[period]).map((l) => l.day))].sort().map((day) => {
      const s = summarize(lines, day, day);
      return { day, calls: s.calls, cost_units: s.cost_units, cost_milli_units: s.cost_milli_units };
    });
    return {
      period,
      totals: { today: total(starts.today), week: total(starts.week), month: total(starts.month) },
      distinct_agents: await usage.distinctAgents(starts[period]),
      by_caller_kind: byCallerKind,
      operations: chosen.operations,
      days,
      pending_lines: meter.pending(),
    };
  }

  /** Retention job: ledger lines older than USAGE_RETENTION_DAYS are deleted. */
  const enforceRetention = () => usage.deleteBefore(utcDay(clock.now() - USAGE_RETENTION_DAYS * DAY));

  return { pricing, paymentInstructions, x402Requirements, refuseSettlement, status, ops, opsSummary, enforceRetention, meter };
}
export type BillingService = ReturnType<typeof createBillingService>;
