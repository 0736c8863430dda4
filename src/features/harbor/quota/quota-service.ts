import { DAY, MINUTE, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { agentLock, type Executor, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { QuotaRepo } from './quota-repo.js';

const ACTION_WINDOW_MS = 5 * MINUTE;
const CREATE_WINDOW_MS = DAY;

/** A harbor feature's count of an agent's active items (open tasks, active help requests…). */
export interface ActiveItemSource {
  name: string;
  countActive(agentId: string, trx?: Executor): Promise<number>;
}

export interface HarborUsage {
  actions_last_5_minutes: number;
  actions_limit: number;
  creates_last_24_hours: number;
  creates_limit: number;
  active_items: number;
  active_limit: number;
}

/**
 * The contract-wide limits of harbor-interface part 8, counted from the store so they hold across
 * restarts and processes: every accepted harbor write is an action (30 per 5 minutes), every write
 * that creates a record is also a create (10 per 24 hours), and an agent holds at most 20 active
 * items. Calls refused by a rule or a limit are not counted. docs/harbor.md lists what counts.
 *
 * A feature charges inside the transaction of its write, under the agent's lock, so concurrent calls
 * cannot all pass the same check and a write that fails takes its charge back with it
 * (docs/decisions/009-transactions-and-locks.md).
 */
export function createQuotaService(deps: { repo: QuotaRepo; clock: Clock; activeSources: readonly ActiveItemSource[]; transaction: TransactionRunner }) {
  const { repo, clock } = deps;

  function refuse(message: string, oldest: number, windowMs: number): never {
    const retryAfter = Math.max(1, Math.ceil((oldest + windowMs - clock.now()) / 1000));
    throw new AppError('task_rate_limited', message, { headers: { 'retry-after': String(retryAfter) } });
  }

  async function activeCount(agentId: string, trx?: Executor): Promise<number> {
    let total = 0;
    for (const source of deps.activeSources) total += await source.countActive(agentId, trx);
    return total;
  }

  async function chargeIn(trx: Trx, agentId: string, operation: string, creates: boolean): Promise<void> {
    const now = clock.now();
    const actions = await repo.window(agentId, now - ACTION_WINDOW_MS, false, trx);
    if (actions.count >= HARBOR_LIMITS.actionsPer5Minutes) {
      refuse(`harbor limit: ${HARBOR_LIMITS.actionsPer5Minutes} actions per 5 minutes reached`, actions.oldest ?? now, ACTION_WINDOW_MS);
    }
    if (creates) {
      const created = await repo.window(agentId, now - CREATE_WINDOW_MS, true, trx);
      if (created.count >= HARBOR_LIMITS.createsPerDay) {
        refuse(`harbor limit: ${HARBOR_LIMITS.createsPerDay} creates per 24 hours reached`, created.oldest ?? now, CREATE_WINDOW_MS);
      }
    }
    await repo.record({ agent_id: agentId, operation, is_create: creates ? 1 : 0, at: now }, trx);
  }

  return {
    /**
     * Checks the limits for one more accepted write and records it. Call after the operation's own
     * rules passed and right before its write, in the write's transaction `trx` (opened under the
     * agent's lock); without one the charge runs in a transaction of its own.
     * `creates` marks writes that create a record.
     */
    async charge(agentId: string, operation: string, options: { creates?: boolean } = {}, trx?: Trx): Promise<void> {
      const creates = options.creates === true;
      if (trx) return chargeIn(trx, agentId, operation, creates);
      return deps.transaction(agentLock(agentId), (own) => chargeIn(own, agentId, operation, creates));
    },

    /**
     * Refuses when the agent already holds the maximum number of active items; runs in the write's
     * transaction. Only closing an item frees a slot, so the answer is 409 active_items_limit (not
     * retryable), never a 429.
     */
    async assertActiveCapacity(agentId: string, trx: Trx): Promise<void> {
      const active = await activeCount(agentId, trx);
      if (active >= HARBOR_LIMITS.activeTasks) {
        throw new AppError('active_items_limit', `harbor limit: ${HARBOR_LIMITS.activeTasks} active tasks and requests (you hold ${active}); complete, cancel or close one first`);
      }
    },

    async usage(agentId: string): Promise<HarborUsage> {
      const now = clock.now();
      const [actions, creates, active] = await Promise.all([repo.window(agentId, now - ACTION_WINDOW_MS, false), repo.window(agentId, now - CREATE_WINDOW_MS, true), activeCount(agentId)]);
      return {
        actions_last_5_minutes: actions.count,
        actions_limit: HARBOR_LIMITS.actionsPer5Minutes,
        creates_last_24_hours: creates.count,
        creates_limit: HARBOR_LIMITS.createsPerDay,
        active_items: active,
        active_limit: HARBOR_LIMITS.activeTasks,
      };
    },

    /** The ledger only needs the longest window. */
    enforceRetention(): Promise<number> {
      return repo.deleteOlderThan(clock.now() - CREATE_WINDOW_MS);
    },
  };
}
export type QuotaService = ReturnType<typeof createQuotaService>;
