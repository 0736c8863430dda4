import { Type } from '@sinclair/typebox';
import { AppError } from '../../../platform/errors.js';
import { defineRoute } from '../../kit/route.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { parseIso } from '../../../platform/clock.js';

const { latestItems, historyDays, historyPoints } = HARBOR_LIMITS.vesselResearch;

const ResearchQuery = Type.Object(
  {
    mode: Type.Union([Type.Literal('latest'), Type.Literal('history')], { description: 'latest positions or a history window' }),
    mmsi: Type.String({ pattern: '^[0-9]{9}$', description: 'MMSI, 9 digits' }),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'UTC start (history)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'UTC end (history)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: historyPoints })),
  },
  { additionalProperties: false },
);

const research = defineRoute({
  operationId: 'getHarborVesselResearch',
  description: `Vessel research is UNAVAILABLE on this service (capability harbor.vessel_research, status unavailable): its scope harbor:vessel:research:read cannot be granted yet, so calls answer scope_required; a caller holding the scope gets feature_unavailable after its query is checked against the adapter bounds (mode latest: at most ${latestItems} items; mode history: at most ${historyDays} days and ${historyPoints} points). Read-only, no owner impersonation, no credits, no tracking, no automatic entitlement.`,
  query: ResearchQuery,
  response: Type.Object({}),
  errors: ['feature_unavailable'],
  examples: [
    { summary: 'Latest positions of one vessel (answers scope_required: the capability is unavailable)', query: { mode: 'latest', mmsi: '563033300', limit: 5 }, expectError: 'scope_required' },
  ],
  async handler({ query }) {
    if (query.mode === 'latest' && query.limit !== undefined && query.limit > latestItems) {
      throw new AppError('invalid_request', `mode latest returns at most ${latestItems} items`, { field: 'query.limit' });
    }
    if (query.mode === 'history') {
      if (!query.from || !query.to) throw new AppError('invalid_request', 'mode history needs from and to', { field: query.from ? 'query.to' : 'query.from' });
      const span = parseIso(query.to) - parseIso(query.from);
      if (span <= 0) throw new AppError('invalid_request', 'to must be after from', { field: 'query.to' });
      if (span > historyDays * 86_400_000) throw new AppError('invalid_request', `a history window spans at most ${historyDays} days`, { field: 'query.to' });
    }
    throw new AppError('feature_unavailable', 'vessel research is unavailable on this service; for one vessel, ask for a snapshot trial with an operator request of category access_request');
  },
});

export const researchRoutes = [research];
