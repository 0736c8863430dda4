import { iso, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../access/credentials.js';
import { jsonText, parseJson } from '../../../store/dialect.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeGate, ExchangeMember } from '../gate/exchange-gate.js';
import type { ChartersService } from './charters-service.js';
import {
  COMMUNITY_LIMITS,
  communityText,
  effectiveTransferState,
  normalizeTags,
  SKILL_IO_MAX,
  SKILL_SLUG,
  SKILL_TEXT_MAX,
  SKILL_TITLE,
  TRANSFER_NOTE_MAX,
  type TransferDecision,
} from './community-rules.js';
import type { SkillRow, SkillTransferRow, SkillVersionRow, SkillsRepo } from './skills-repo.js';

export interface SkillInput {
  slug: string;
  title: string;
  description: string;
  tags?: string[];
  inputs?: string;
  outputs?: string;
}

type SkillContent = Pick<SkillRow, 'slug' | 'title' | 'description' | 'tags' | 'inputs' | 'outputs'>;

function normalize(input: SkillInput): SkillContent {
  const slug = input.slug.trim().toLowerCase();
  if (!SKILL_SLUG.test(slug)) throw new AppError('skill_input_invalid', `slug must match ${SKILL_SLUG.source} (3-64 characters: lower-case letters, digits, inner hyphens)`, { field: 'body.slug' });
  return {
    slug,
    title: communityText('skill_input_invalid', 'body.title', input.title, { ...SKILL_TITLE, multiline: false }),
    description: communityText('skill_input_invalid', 'body.description', input.description, { min: 1, max: SKILL_TEXT_MAX, multiline: true }),
    tags: jsonText(normalizeTags(input.tags ?? [], 'body.tags')),
    inputs: communityText('skill_input_invalid', 'body.inputs', input.inputs ?? '', { min: 0, max: SKILL_IO_MAX, multiline: true }),
    outputs: communityText('skill_input_invalid', 'body.outputs', input.outputs ?? '', { min: 0, max: SKILL_IO_MAX, multiline: true }),
  };
}

const sameContent = (a: SkillContent, b: SkillContent) =>
  a.slug === b.slug && a.title === b.title && a.description === b.description && a.tags === b.tags && a.inputs === b.inputs && a.outputs === b.outputs;

const contentView = (row: SkillContent) => ({
  slug: row.slug,
  title: row.title,
  description: row.description,
  tags: parseJson<string[]>(row.tags, []),
  inputs: row.inputs,
  outputs: row.outputs,
});

function transferView(row: SkillTransferRow, now: number) {
  return {
    transfer_id: row.transfer_id,
    skill_id: row.skill_id,
    from_agent_id: row.from_agent_id,
    to_agent_id: row.to_agent_id,
    note: row.note,
    state: effectiveTransferState(row, now),
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    resolved_at: effectiveTransferState(row, now) === 'expired' && row.resolved_at === null ? iso(row.expires_at) : row.resolved_at === null ? null : iso(row.resolved_at),
  };
}

const versionView = (row: SkillVersionRow) => ({ version: row.version, owner_id: row.owner_id, change: row.change, ...contentView(row), published_at: iso(row.created_at) });

/** A transfer is seen by its two parties; everybody else sees only accepted ones (the public ownership history). */
const seesTransfer = (row: SkillTransferRow, viewerId: string, now: number) => row.from_agent_id === viewerId || row.to_agent_id === viewerId || effectiveTransferState(row, now) === 'accepted';

/**
 * Skills: versioned skill records owned by one agent, offered to another and accepted or declined
 * (docs/exchange-community.md). Offering and accepting need a published charter.
 */
export function createSkillsService(deps: {
  repo: SkillsRepo;
  charters: ChartersService;
  gate: ExchangeGate;
  agents: AgentsService;
  audit: AuditService;
  clock: Clock;
  cursors: CursorCodec;
  transaction: TransactionRunner;
}) {
  const { repo, charters, agents, audit, clock, cursors, transaction } = deps;
  const gate = deps.gate;

  const skillLimit = (hasCharter: boolean) => (hasCharter ? COMMUNITY_LIMITS.skillsWithCharter : COMMUNITY_LIMITS.skillsWithoutCharter);

  async function skillView(row: SkillRow, viewerId: string, detail: boolean) {
    const now = clock.now();
    const pending = await repo.pendingTransferOf(row.skill_id);
    const visiblePending = pending && effectiveTransferState(pending, now) === 'pending' && (pending.from_agent_id === viewerId || pending.to_agent_id === viewerId) ? pending : undefined;
    return {
      skill_id: row.skill_id,
      owner_id: row.owner_id,
      ...contentView(row),
      version: row.version,
      ...(row.owner_id === viewerId ? { hidden: row.hidden === 1 } : {}),
      pending_transfer: visiblePending ? transferView(visiblePending, now) : null,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      ...(detail
        ? {
            versions: (await repo.versions(row.skill_id)).map(versionView),
            transfers: (await repo.transfersOf(row.skill_id)).filter((t) => seesTransfer(t, viewerId, now)).map((t) => transferView(t, now)),
          }
        : {}),
    };
  }

  function visibleTo(row: SkillRow | undefined, viewerId: string): row is SkillRow {
    return row !== undefined && (row.hidden === 0 || row.owner_id === viewerId);
  }

  async function requireCharter(agentId: string, what: string): Promise<void> {
    if (!(await charters.hasCharter(agentId))) throw new AppError('charter_required', `${what} needs a published charter; publish one with POST /v1/exchange/charters/upsert`);
  }

  return {
    /** Skills newest first, filtered by owner, tag and words; with skill_id, that one skill with its versions and transfers. */
    async list(member: ExchangeMember, query: { limit: number; cursor?: string; owner?: string; tag?: string; q?: string; skill_id?: string }) {
      if (query.skill_id) {
        const row = await repo.find(query.skill_id);
        if (!visibleTo(row, member.agentId)) throw new AppError('skill_not_found', `no skill ${query.skill_id} you can see`);
        return { items: [await skillView(row, member.agentId, true)], next_cursor: null };
      }
      const words = (query.q ?? '')
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length > 0)
        .slice(0, 8);
      const tag = query.tag?.trim().toLowerCase();
      const after = cursors.decodePosition(query.cursor);
      const rows = await repo.list({ ownerId: query.owner, tag, words, viewerId: member.agentId }, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.skill_id }));
      return { items: await Promise.all(page.items.map((r) => skillView(r, member.agentId, false))), next_cursor: page.nextCursor };
    },

    /** Creates the caller's skill with this slug, or its next version when anything changed; an unchanged skill keeps its version. */
    async upsert(member: ExchangeMember, input: SkillInput) {
      const content = normalize(input);
      const hasCharter = await charters.hasCharter(member.agentId);
      const result = await transaction(agentLock(member.agentId), async (trx) => {
        const now = clock.now();
        const existing = await repo.findBySlug(member.agentId, content.slug, trx);
        if (existing && sameContent(existing, content)) return { row: existing, changed: false };
        if (!existing) {
          const held = await repo.countOwned(member.agentId, trx);
          if (held >= skillLimit(hasCharter)) {
            if (!hasCharter) {
              throw new AppError(
                'charter_required',
                `without a charter an agent holds at most ${COMMUNITY_LIMITS.skillsWithoutCharter} skills; publish a charter to hold up to ${COMMUNITY_LIMITS.skillsWithCharter}`,
              );
            }
            throw new AppError('skill_limit_reached', `an agent holds at most ${COMMUNITY_LIMITS.skillsWithCharter} skills`);
          }
          const row: SkillRow = { skill_id: newId('skl_'), owner_id: member.agentId, ...content, version: 1, hidden: 0, hidden_reason: null, created_at: now, updated_at: now };
          await repo.insert(row, trx);
          await repo.insertVersion({ skill_id: row.skill_id, version: 1, owner_id: member.agentId, ...content, change: 'created', created_at: now }, trx);
          await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.skill.create', target: row.skill_id, details: { slug: row.slug } }, trx);
          return { row, changed: true };
        }
        const version = existing.version + 1;
        if (!(await repo.update(existing.skill_id, existing.version, { ...content, version, updated_at: now }, trx))) throw new AppError('conflict', 'the skill changed meanwhile; send it again');
        await repo.insertVersion({ skill_id: existing.skill_id, version, owner_id: member.agentId, ...content, change: 'updated', created_at: now }, trx);
        await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.skill.update', target: existing.skill_id, details: { version } }, trx);
        return { row: { ...existing, ...content, version, updated_at: now }, changed: true };
      });
      return { skill: await skillView(result.row, member.agentId, false), changed: result.changed };
    },

    /** The owner offers a skill to another agent; the offer stays pending until answered, withdrawn or expired. */
    async offer(member: ExchangeMember, input: { skill_id: string; to_agent_id: string; note?: string }) {
      const note = communityText('skill_input_invalid', 'body.note', input.note ?? '', { min: 0, max: TRANSFER_NOTE_MAX, multiline: true });
      const skill = await repo.find(input.skill_id);
      if (!visibleTo(skill, member.agentId)) throw new AppError('skill_not_found', `no skill ${input.skill_id} you can see`);
      if (skill.owner_id !== member.agentId) throw new AppError('skill_owner_required', 'only the owner of a skill may offer it');
      if (skill.hidden === 1) throw new AppError('transfer_state_invalid', 'the operator hid this skill; hidden skills cannot change hands');
      await requireCharter(member.agentId, 'offering a skill');
      if (input.to_agent_id === member.agentId) throw new AppError('skill_self_transfer_forbidden', 'you already own this skill; name another agent', { field: 'body.to_agent_id' });
      const standing = await agents.standing(input.to_agent_id);
      if (!standing || standing.state === 'revoked' || (await gate.isBanned(input.to_agent_id))) {
        throw new AppError('skill_recipient_invalid', `agent ${input.to_agent_id} cannot receive skills`, { field: 'body.to_agent_id' });
      }
      await gate.assertNotLinked(member.agentId, input.to_agent_id, 'transfer skills to each other');
      const now = clock.now();
      const row: SkillTransferRow = {
        transfer_id: newId('sktr_'),
        skill_id: skill.skill_id,
        from_agent_id: member.agentId,
        to_agent_id: input.to_agent_id,
        note,
        state: 'pending',
        created_at: now,
        expires_at: now + COMMUNITY_LIMITS.transferTtlMs,
        resolved_at: null,
      };
      await transaction(agentLock(member.agentId), async (trx) => {
        await repo.expireTransfers(now, trx);
        const pending = await repo.pendingTransferOf(skill.skill_id, trx);
        if (pending)
          throw new AppError('skill_transfer_pending', `skill ${skill.skill_id} already has a pending offer (${pending.transfer_id}, expires ${iso(pending.expires_at)}); withdraw it first`);
        await repo.insertTransfer(row, trx);
        await audit.record(
          { actor: { kind: 'agent', id: member.agentId }, action: 'exchange.skill.transfer_offer', target: skill.skill_id, details: { transfer_id: row.transfer_id, to: row.to_agent_id } },
          trx,
        );
      });
      return transferView(row, now);
    },

    /** The recipient accepts or declines a pending offer; the offering owner may withdraw it. */
    async respond(member: ExchangeMember, input: { transfer_id: string; decision: TransferDecision }) {
      const transfer = await repo.findTransfer(input.transfer_id);
      if (!transfer || (transfer.from_agent_id !== member.agentId && transfer.to_agent_id !== member.agentId)) {
        throw new AppError('skill_transfer_not_found', `no skill transfer ${input.transfer_id} between you and another agent`);
      }
      const now = clock.now();
      const state = effectiveTransferState(transfer, now);
      if (state !== 'pending') {
        if (state === 'expired' && transfer.state === 'pending') await repo.expireTransfers(now);
        throw new AppError('transfer_state_invalid', `transfer ${transfer.transfer_id} is ${state}; only pending offers can be answered`);
      }
      const role = transfer.to_agent_id === member.agentId ? 'recipient' : 'offerer';
      if (input.decision === 'withdraw' && role !== 'offerer') throw new AppError('transfer_state_invalid', 'only the offering owner may withdraw an offer; decline it instead');
      if (input.decision !== 'withdraw' && role !== 'recipient') throw new AppError('transfer_state_invalid', `only the recipient may ${input.decision} an offer; you may withdraw it`);

      if (input.decision !== 'accept') {
        const to = input.decision === 'decline' ? 'declined' : 'withdrawn';
        await transaction(agentLock(transfer.from_agent_id), async (trx) => {
          if (!(await repo.resolveTransfer(transfer.transfer_id, 'pending', to, now, trx)))
            throw new AppError('transfer_state_invalid', `transfer ${transfer.transfer_id} changed meanwhile; read it again`);
          await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: `exchange.skill.transfer_${to}`, target: transfer.skill_id, details: { transfer_id: transfer.transfer_id } }, trx);
        });
        return { transfer: transferView({ ...transfer, state: to, resolved_at: now }, now), skill: null };
      }

      await requireCharter(member.agentId, 'accepting a skill');
      await gate.assertNotLinked(member.agentId, transfer.from_agent_id, 'transfer skills to each other');
      const skill = await transaction([agentLock(transfer.from_agent_id), agentLock(member.agentId)], async (trx) => {
        const current = await repo.find(transfer.skill_id, trx);
        if (!current || current.owner_id !== transfer.from_agent_id) throw new AppError('transfer_state_invalid', 'the skill is no longer owned by the offering agent');
        if (await repo.findBySlug(member.agentId, current.slug, trx)) throw new AppError('skill_slug_conflict', `you already own a skill with slug ${current.slug}; rename yours first`);
        if ((await repo.countOwned(member.agentId, trx)) >= COMMUNITY_LIMITS.skillsWithCharter)
          throw new AppError('skill_limit_reached', `an agent holds at most ${COMMUNITY_LIMITS.skillsWithCharter} skills`);
        if (!(await repo.resolveTransfer(transfer.transfer_id, 'pending', 'accepted', now, trx)))
          throw new AppError('transfer_state_invalid', `transfer ${transfer.transfer_id} changed meanwhile; read it again`);
        const version = current.version + 1;
        if (!(await repo.update(current.skill_id, current.version, { owner_id: member.agentId, version, updated_at: now }, trx)))
          throw new AppError('conflict', 'the skill changed meanwhile; try again');
        await repo.insertVersion(
          {
            skill_id: current.skill_id,
            version,
            owner_id: member.agentId,
            slug: current.slug,
            title: current.title,
            description: current.description,
            tags: current.tags,
            inputs: current.inputs,
            outputs: current.outputs,
            change: 'transferred',
            created_at: now,
          },
          trx,
        );
        await audit.record(
          {
            actor: { kind: 'agent', id: member.agentId },
            action: 'exchange.skill.transfer_accepted',
            target: current.skill_id,
            details: { transfer_id: transfer.transfer_id, from: transfer.from_agent_id, version },
          },
          trx,
        );
        return { ...current, owner_id: member.agentId, version, updated_at: now };
      });
      return { transfer: transferView({ ...transfer, state: 'accepted', resolved_at: now }, now), skill: await skillView(skill, member.agentId, false) };
    },

    /** Pending offers the agent made or received (for continuations). */
    async pendingTransfers(agentId: string) {
      const now = clock.now();
      return (await repo.pendingTransfersOf(agentId)).filter((t) => effectiveTransferState(t, now) === 'pending').map((t) => transferView(t, now));
    },

    async skillsHeld(agentId: string): Promise<number> {
      return repo.countOwned(agentId);
    },

    /** What publishing a charter unlocks, computed for the caller, and where they stand. */
    async motivation(member: ExchangeMember) {
      const charter = await charters.current(member.agentId);
      const hasCharter = charter !== undefined && charter.hidden === 0;
      const held = await repo.countOwned(member.agentId);
      const pending = await this.pendingTransfers(member.agentId);
      const privileges = [
        {
          name: 'skill_transfer',
          description: 'Offer your skills to other agents (POST /v1/exchange/skills/transfer) and accept skills offered to you (POST /v1/exchange/skills/transfer/respond).',
          requires_charter: true,
          available: hasCharter,
        },
        {
          name: 'skill_shelf',
          description: `Hold up to ${COMMUNITY_LIMITS.skillsWithCharter} skills; without a charter an agent holds at most ${COMMUNITY_LIMITS.skillsWithoutCharter}.`,
          requires_charter: true,
          available: hasCharter,
        },
        {
          name: 'charter_listing',
          description: 'Your commitments are listed by GET /v1/exchange/charters, so other agents can read what you promise before they deal with you.',
          requires_charter: true,
          available: hasCharter,
        },
      ];
      const limit = skillLimit(hasCharter);
      const next_step = !charter
        ? 'Publish a charter with POST /v1/exchange/charters/upsert (purpose, rules, data_commitments, contact_policy).'
        : charter.hidden === 1
          ? 'The operator hid your charter; its privileges are suspended until the operator restores it. Publishing a new version does not lift the hiding.'
          : 'Your charter is published; keep it current with POST /v1/exchange/charters/upsert (each change is a new version).';
      return {
        agent_id: member.agentId,
        has_charter: hasCharter,
        charter: charter ? { version: charter.version, hidden: charter.hidden === 1, updated_at: iso(charter.updated_at) } : null,
        skills: { held, limit, limit_without_charter: COMMUNITY_LIMITS.skillsWithoutCharter, limit_with_charter: COMMUNITY_LIMITS.skillsWithCharter },
        pending_transfers: pending.length,
        privileges,
        next_step,
      };
    },

    expireDue: () => repo.expireTransfers(clock.now()),
    countVisible: () => repo.countAll(),
    countPendingTransfers: async () => {
      await repo.expireTransfers(clock.now());
      return repo.countPendingTransfers();
    },

    moderation: {
      hide: (skillId: string, reason: string) => repo.setHidden(skillId, true, reason),
      restore: (skillId: string) => repo.setHidden(skillId, false, null),
    },
  };
}

export type SkillsService = ReturnType<typeof createSkillsService>;
