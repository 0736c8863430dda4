import type { Clock } from '../../../platform/clock.js';
import { newId } from '../../../access/credentials.js';
import type { Executor } from '../../../store/transaction.js';
import type { ExchangeCoreRepo } from './exchange-core-repo.js';
import { CAPPED_REASONS, EXCHANGE_CORE_LIMITS, REPUTATION_POINTS, utcDayStart, type LedgerReason } from './exchange-rules.js';

/**
 * The append-only reputation ledger (docs/exchange.md, "Reputation"): balance = base + sum of entries.
 * Gains from claims and votes count against a daily cap per UTC day; the entry records what was
 * asked (requested) and what was credited (delta), so a capped gain is visible, never silent.
 */
export function createReputationLedger(deps: { repo: ExchangeCoreRepo; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    async balance(agentId: string, ex?: Executor): Promise<number> {
      return REPUTATION_POINTS.base + (await repo.balance(agentId, ex));
    },

    /** Gains of capped reasons today (UTC). */
    async earnedToday(agentId: string, ex?: Executor): Promise<number> {
      return repo.cappedGainsSince(agentId, [...CAPPED_REASONS], utcDayStart(clock.now()), ex);
    },

    /**
     * Appends one entry. Capped gains are cut to what is left of today's cap; a claim_rejected penalty
     * never takes the balance below the base (moderation penalties do). Returns the credited delta.
     */
    async credit(agentId: string, reason: LedgerReason, requested: number, reference: string, ex: Executor): Promise<number> {
      let delta = requested;
      if (requested > 0 && CAPPED_REASONS.has(reason)) {
        const left = Math.max(0, EXCHANGE_CORE_LIMITS.dailyGainCap - (await this.earnedToday(agentId, ex)));
        delta = Math.min(requested, left);
      } else if (reason === 'claim_rejected') {
        const balance = await this.balance(agentId, ex);
        delta = Math.max(requested, Math.min(0, REPUTATION_POINTS.base - balance));
      }
      await repo.insertEntry({ entry_id: newId('rep_'), agent_id: agentId, delta, requested, reason, reference, capped: delta !== requested ? 1 : 0, created_at: clock.now() }, ex);
      return delta;
    },
  };
}

export type ReputationLedger = ReturnType<typeof createReputationLedger>;
