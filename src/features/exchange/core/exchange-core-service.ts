import type { Caller } from '../../../access/principals.js';
import { createBountiesService } from './bounties-service.js';
import { createClaimsService } from './claims-service.js';
import { createSettlement, type ExchangeCoreDeps } from './exchange-settlement.js';
import { createReputationService } from './reputation-service.js';

export type { ExchangeCoreDeps } from './exchange-settlement.js';

/**
 * Claims, votes, bounties and reputation (docs/exchange.md; decisions 038 and 039). Decisions and
 * expiries are applied lazily before every read and write that could see them, and by the
 * exchange_core_sweep job, so a state never depends on the job having run.
 */
export function createExchangeCoreService(deps: ExchangeCoreDeps) {
  const settlement = createSettlement(deps);
  return {
    sweep: settlement.sweep,
    ...createClaimsService(deps, settlement),
    ...createBountiesService(deps, settlement),
    ...createReputationService(deps, settlement),
    member: (caller: Caller) => deps.gate.member(caller),
  };
}

export type ExchangeCoreService = ReturnType<typeof createExchangeCoreService>;
