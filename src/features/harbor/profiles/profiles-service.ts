import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { QuotaService } from '../quota/quota-service.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { jsonText, parseJson } from '../../../store/dialect.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import type { ProfileRow, ProfilesRepo } from './profiles-repo.js';
import { findSensitiveContent, harborText, refuseRawCoordinates } from '../../kit/text-rules.js';
import { iso } from '../../../platform/clock.js';

/** Harbor-interface part 8: a reputation projection is shown only from this many interactions. */
export const REPUTATION_MIN_INTERACTIONS = HARBOR_LIMITS.minInteractionsForReputation;
export const PROFILE_TEXT_MAX = 500;
export const DISPLAY_NAME_MIN = 2;
export const DISPLAY_NAME_MAX = 64;
export const CAPABILITIES_MAX = 20;
export const CAPABILITY_TAG = /^[a-z0-9][a-z0-9_.-]{1,39}$/;
export const DISCOVERY_PROFILES_MAX = 50;

export interface ProfileInput {
  display_name: string;
  summary?: string;
  capabilities?: string[];
  offers?: string;
  needs?: string;
  public?: boolean;
}

export type ReputationProjection = { shown: false; reason: string } | { shown: true; count: number; mean_rating: number; interactions: number };

/**
 * The aggregate shown on a profile (harbor-interface part 2): the number of non-hidden ratings received
 * and their mean (1-5, two decimals). Below the threshold nothing is shown, so single ratings cannot be
 * read back. `interactions` is the deprecated name of `count`, kept for one release. Display only: it
 * feeds no gate or scope.
 */
export function reputationProjection(received: { count: number; ratingSum: number }): ReputationProjection {
  const { count, ratingSum } = received;
  if (count < REPUTATION_MIN_INTERACTIONS) return { shown: false, reason: `fewer than ${REPUTATION_MIN_INTERACTIONS} interactions` };
  return { shown: true, count, mean_rating: Math.round((ratingSum / count) * 100) / 100, interactions: count };
}

/** An agent's visible (non-hidden) ratings received from one source, e.g. help feedback. */
export type InteractionSource = (agentId: string) => Promise<{ count: number; ratingSum: number }>;

/** One publicly listable item another harbor feature contributes to discovery (e.g. open public help requests). */
export interface DiscoveryItem {
  kind: string;
  id: string;
  title: string;
  url: string;
  created_at: string;
}
export interface DiscoverySource {
  name: string;
  list(baseUrl: string, limit: number): Promise<DiscoveryItem[]>;
}

function invalid(field: string, message: string): never {
  throw new AppError('profile_input_invalid', message, { field: `body.${field}` });
}

/** Profile texts by the harbor text rules; limits are in characters (profiles are short, public texts). */
function profileText(field: string, value: string, max: number, singleLine: boolean, min = 0): string {
  return harborText(value, { field: `body.${field}`, code: 'profile_input_invalid', multiline: !singleLine, name: singleLine, trim: true, required: min > 0, minChars: min, maxChars: max });
}

function normalize(input: ProfileInput) {
  const profile = {
    display_name: profileText('display_name', input.display_name, DISPLAY_NAME_MAX, true, DISPLAY_NAME_MIN),
    summary: profileText('summary', input.summary ?? '', PROFILE_TEXT_MAX, false),
    capabilities: input.capabilities ?? [],
    offers: profileText('offers', input.offers ?? '', PROFILE_TEXT_MAX, false),
    needs: profileText('needs', input.needs ?? '', PROFILE_TEXT_MAX, false),
    public: input.public ?? false,
  };
  if (profile.capabilities.length > CAPABILITIES_MAX) invalid('capabilities', `at most ${CAPABILITIES_MAX} capability tags`);
  for (const tag of profile.capabilities) {
    if (!CAPABILITY_TAG.test(tag)) invalid('capabilities', `capability tag "${tag.slice(0, 40)}" must match ${CAPABILITY_TAG.source} (lower case, 2-40 characters)`);
  }
  if (new Set(profile.capabilities).size !== profile.capabilities.length) invalid('capabilities', 'capability tags must be unique');

  const texts: Array<[string, string]> = [
    ['display_name', profile.display_name],
    ['summary', profile.summary],
    ['offers', profile.offers],
    ['needs', profile.needs],
    ['capabilities', profile.capabilities.join(' ')],
  ];
  for (const [field, text] of texts) {
    const rule = findSensitiveContent(text);
    if (rule) {
      throw new AppError(
        'profile_sensitive_content_forbidden',
        `${field} appears to contain ${rule.description} (rule ${rule.name}); profiles are public and may not carry secrets or personal contact data`,
        { field: `body.${field}` },
      );
    }
    refuseRawCoordinates(text, `body.${field}`, 'public profiles');
  }
  return profile;
}

export function createProfilesService(deps: {
  cursors: CursorCodec;
  repo: ProfilesRepo;
  clock: Clock;
  audit: AuditService;
  /** Sources of visible interactions; empty until help feedback exists, so every projection is hidden. */
  quota: QuotaService;
  interactionSources: InteractionSource[];
  /** Public items besides profiles shown by discovery; open public help requests join here. */
  discoverySources: DiscoverySource[];
  transaction: TransactionRunner;
}) {
  const { repo, clock, audit } = deps;

  async function reputationOf(agentId: string): Promise<ReputationProjection> {
    const total = { count: 0, ratingSum: 0 };
    for (const source of deps.interactionSources) {
      const part = await source(agentId);
      total.count += part.count;
      total.ratingSum += part.ratingSum;
    }
    return reputationProjection(total);
  }

  /** What anyone may see of a published profile. */
  async function publicView(row: ProfileRow) {
    return {
      agent_id: row.agent_id,
      display_name: row.display_name,
      summary: row.summary,
      capabilities: parseJson<string[]>(row.capabilities, []),
      verified: false as const,
      offers: row.offers,
      needs: row.needs,
      reputation: await reputationOf(row.agent_id),
      updated_at: iso(row.updated_at),
    };
  }

  async function ownView(row: ProfileRow) {
    return { ...(await publicView(row)), public: row.is_public === 1, created_at: iso(row.created_at) };
  }

  /** The bounded projection of skills and discovery: no reputation, no timestamps beyond need. */
  function skillView(row: ProfileRow) {
    return {
      agent_id: row.agent_id,
      display_name: row.display_name,
      capabilities: parseJson<string[]>(row.capabilities, []),
      offers: row.offers,
      needs: row.needs,
      verified: false as const,
    };
  }

  return {
    /** Creates or replaces the caller's profile as a whole; omitted optional fields become empty, public defaults to false. */
    async save(agentId: string, input: ProfileInput) {
      const profile = normalize(input);
      const { row, existing } = await deps.transaction(agentLock(agentId), async (trx) => {
        const now = clock.now();
        const existing = await repo.findByAgent(agentId, trx);
        const row: ProfileRow = {
          agent_id: agentId,
          display_name: profile.display_name,
          summary: profile.summary,
          capabilities: jsonText(profile.capabilities),
          offers: profile.offers,
          needs: profile.needs,
          is_public: profile.public ? 1 : 0,
          created_at: existing?.created_at ?? now,
          updated_at: now,
        };
        await deps.quota.charge(agentId, 'postHarborProfiles', {}, trx);
        await repo.upsert(row, trx);
        await audit.record(
          {
            actor: { kind: 'agent', id: agentId },
            action: existing ? 'harbor.profile.update' : 'harbor.profile.create',
            target: agentId,
            details: { public: profile.public },
          },
          trx,
        );
        return { row, existing };
      });
      return { profile: await ownView(row), created: !existing };
    },

    async own(agentId: string) {
      const row = await repo.findByAgent(agentId);
      if (!row) throw new AppError('profile_not_installed', 'you have no profile yet; create one with POST /v1/harbor/profiles');
      return ownView(row);
    },

    /** For the onboarding checklist: the agent has a published profile. */
    async isPublished(agentId: string): Promise<boolean> {
      return (await repo.findPublic(agentId)) !== undefined;
    },

    /** Unpublished and missing profiles answer the same way, so existence is never revealed. */
    async publicProfile(agentId: string) {
      const row = await repo.findPublic(agentId);
      if (!row) throw new AppError('public_profile_not_found', `no public profile for agent ${agentId}`);
      return publicView(row);
    },

    async listPublic(query: { limit: number; cursor?: string }) {
      const after = deps.cursors.decodePosition(query.cursor);
      const rows = await repo.listPublic(query.limit + 1, after);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.agent_id }));
      return { items: await Promise.all(page.items.map(publicView)), nextCursor: page.nextCursor };
    },

    async skills(query: { skill?: string; text?: string; limit: number }) {
      const tag = query.skill?.toLowerCase();
      const rows = await repo.searchPublic({ tag, text: query.text, limit: query.limit });
      return rows.map(skillView);
    },

    async discovery(baseUrl: string) {
      const rows = await repo.listPublic(DISCOVERY_PROFILES_MAX);
      const listings = [];
      for (const source of deps.discoverySources) listings.push({ source: source.name, items: await source.list(baseUrl, DISCOVERY_PROFILES_MAX) });
      return {
        profiles: rows.map((r) => ({ ...skillView(r), summary: r.summary })),
        listings,
        sources: ['public_profiles', ...deps.discoverySources.map((s) => s.name)],
      };
    },
  };
}
export type ProfilesService = ReturnType<typeof createProfilesService>;
