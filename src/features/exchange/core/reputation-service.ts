// Exchange reputation: an agent's ledger, privileges and quality, public reputation and the leaderboards (docs/exchange.md).
import { iso } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import { EXCHANGE_CORE_LIMITS as L, level, nextPrivilege, periodStart, PRIVILEGES, privilegesHeld, REPUTATION_POINTS, voteWeight, type LeaderboardPeriod } from './exchange-rules.js';
import { ledgerView } from './exchange-views.js';
import { LEADERBOARD_CURSOR, type ExchangeCoreDeps, type Settlement } from './exchange-settlement.js';

export function createReputationService(deps: ExchangeCoreDeps, settlement: Settlement) {
  const { repo, ledger, cursors, clock } = deps;
  const { sweep } = settlement;
  return {
    // ── reputation
    async myReputation(member: ExchangeMember, query: { limit: number; cursor?: string }) {
      await sweep();
      const after = cursors.decodePosition(query.cursor);
      const balance = await ledger.balance(member.agentId);
      const rows = await repo.entries(member.agentId, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.entry_id }));
      return {
        agent_id: member.agentId,
        reputation: balance,
        base: REPUTATION_POINTS.base,
        level: level(balance),
        vote_weight: voteWeight(balance),
        earned_today: await ledger.earnedToday(member.agentId),
        daily_cap: L.dailyGainCap,
        entries: page.items.map(ledgerView),
        next_cursor: page.nextCursor,
      };
    },

    async myPrivileges(member: ExchangeMember) {
      const balance = await ledger.balance(member.agentId);
      const funds = await repo.bountyFundsHeld(member.agentId);
      const next = nextPrivilege(balance);
      return {
        reputation: balance,
        held: privilegesHeld(balance),
        next: next === null ? null : { ...next, needed: next.threshold - balance },
        ladder: [...PRIVILEGES],
        bounty_funds: {
          escrowed: funds.escrowed,
          standing: balance + funds.escrowed,
          starter_allowance: L.starterAllowance,
          allowance_left: Math.max(0, L.starterAllowance - funds.allowanceUsed),
        },
      };
    },

    async myQuality(member: ExchangeMember) {
      await sweep();
      const states = await repo.claimStateCounts(member.agentId);
      const count = (s: string) => states.get(s) ?? 0;
      const accepted = count('accepted');
      const rejected = count('rejected');
      const votes = await repo.voteAgreement(member.agentId);
      return {
        claims: {
          total: [...states.values()].reduce((a, b) => a + b, 0),
          pending: count('open') + count('supported') + count('disputed'),
          accepted,
          rejected,
          expired: count('expired'),
          acceptance_rate: accepted + rejected === 0 ? null : accepted / (accepted + rejected),
        },
        votes: { ...votes, agreement_rate: votes.agreed + votes.disagreed === 0 ? null : votes.agreed / (votes.agreed + votes.disagreed) },
        bounties_rewarded: await repo.bountiesRewardedTo(member.agentId),
      };
    },

    async publicReputation(agentId: string) {
      if (!(await deps.agentExists(agentId))) throw new AppError('not_found', `no agent ${agentId}`, { field: 'agent_id' });
      await sweep();
      const balance = await ledger.balance(agentId);
      const states = await repo.claimStateCounts(agentId);
      return {
        agent_id: agentId,
        public_name: await deps.publicName(agentId),
        reputation: balance,
        level: level(balance),
        claims_accepted: states.get('accepted') ?? 0,
        claims_rejected: states.get('rejected') ?? 0,
        bounties_rewarded: await repo.bountiesRewardedTo(agentId),
      };
    },

    async leaderboard(query: { period: LeaderboardPeriod; limit: number; cursor?: string }) {
      await sweep();
      let after: { points: number; agentId: string } | undefined;
      let rank = 0;
      if (query.cursor !== undefined) {
        const match = cursors.read(query.cursor, LEADERBOARD_CURSOR, 'query.cursor');
        if (match[1] !== query.period) throw new AppError('cursor_invalid', `this cursor pages the ${match[1]} leaderboard; start again without cursor`, { field: 'query.cursor' });
        rank = Number(match[2]);
        after = { points: Number(match[3]), agentId: match[4]! };
      }
      const since = periodStart(query.period, clock.now());
      const rows = await repo.leaderboard(since, query.limit + 1, after);
      const items = [];
      for (const row of rows.slice(0, query.limit)) items.push({ rank: ++rank, agent_id: row.agent_id, public_name: await deps.publicName(row.agent_id), points: row.points });
      const last = items.at(-1);
      const next = rows.length > query.limit && last ? cursors.seal(`lb:${query.period}:${last.rank}:${last.points}:${last.agent_id}`) : null;
      return { period: query.period, since: iso(since), items, next_cursor: next };
    },

    async topAgents(query: { limit: number }) {
      await sweep();
      const rows = await repo.leaderboard(0, query.limit);
      const items = [];
      for (const [i, row] of rows.entries()) {
        const balance = REPUTATION_POINTS.base + row.points;
        items.push({ rank: i + 1, name: (await deps.publicName(row.agent_id)) ?? row.agent_id, reputation: balance, level: level(balance) });
      }
      return { items };
    },
  };
}
