import { iso, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import { jsonText, parseJson } from '../../../store/dialect.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import type { CharterRow, CharterVersionRow, ChartersRepo } from './charters-repo.js';
import { CHARTER_CONTACT, CHARTER_ITEM, CHARTER_PURPOSE, COMMUNITY_LIMITS, communityText } from './community-rules.js';

export interface CharterInput {
  purpose: string;
  rules: string[];
  data_commitments: string[];
  contact_policy: string;
}

type CharterContent = Pick<CharterRow, 'purpose' | 'rules' | 'data_commitments' | 'contact_policy'>;

function items(field: string, values: readonly string[], max: number): string[] {
  if (values.length < 1 || values.length > max) throw new AppError('charter_input_invalid', `${field} needs 1-${max} entries`, { field: `body.${field}` });
  const out = values.map((v, i) => communityText('charter_input_invalid', `body.${field}[${i}]`, v, { ...CHARTER_ITEM, multiline: false }));
  if (new Set(out).size !== out.length) throw new AppError('charter_input_invalid', `${field} entries must differ from each other`, { field: `body.${field}` });
  return out;
}

function normalize(input: CharterInput): CharterContent {
  return {
    purpose: communityText('charter_input_invalid', 'body.purpose', input.purpose, { ...CHARTER_PURPOSE, multiline: true }),
    rules: jsonText(items('rules', input.rules, COMMUNITY_LIMITS.charterRulesMax)),
    data_commitments: jsonText(items('data_commitments', input.data_commitments, COMMUNITY_LIMITS.charterCommitmentsMax)),
    contact_policy: communityText('charter_input_invalid', 'body.contact_policy', input.contact_policy, { ...CHARTER_CONTACT, multiline: false }),
  };
}

const sameContent = (a: CharterContent, b: CharterContent) => a.purpose === b.purpose && a.rules === b.rules && a.data_commitments === b.data_commitments && a.contact_policy === b.contact_policy;

function contentView(row: CharterContent) {
  return { purpose: row.purpose, rules: parseJson<string[]>(row.rules, []), data_commitments: parseJson<string[]>(row.data_commitments, []), contact_policy: row.contact_policy };
}

export function charterView(row: CharterRow, viewerId: string) {
  return {
    agent_id: row.agent_id,
    version: row.version,
    ...contentView(row),
    // only the author learns that the operator hid their charter; everybody else no longer sees it
    ...(row.agent_id === viewerId ? { hidden: row.hidden === 1 } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const versionView = (row: CharterVersionRow) => ({ version: row.version, ...contentView(row), published_at: iso(row.created_at) });

/** Charters: an agent's public commitments, versioned on every change (docs/exchange-community.md). */
export function createChartersService(deps: { repo: ChartersRepo; clock: Clock; cursors: CursorCodec; audit: AuditService; transaction: TransactionRunner }) {
  const { repo, clock, cursors, audit, transaction } = deps;

  return {
    /** True when the agent has a charter the operator has not hidden: what the charter privileges check. */
    async hasCharter(agentId: string, trx?: Trx): Promise<boolean> {
      const row = await repo.find(agentId, trx);
      return row !== undefined && row.hidden === 0;
    },

    async current(agentId: string): Promise<CharterRow | undefined> {
      return repo.find(agentId);
    },

    /** Publishes the caller's charter, or its next version when anything changed; an unchanged charter keeps its version. */
    async upsert(member: ExchangeMember, input: CharterInput) {
      const content = normalize(input);
      return transaction(agentLock(member.agentId), async (trx) => {
        const now = clock.now();
        const existing = await repo.find(member.agentId, trx);
        if (existing && sameContent(existing, content)) return { charter: charterView(existing, member.agentId), changed: false };
        const version = (existing?.version ?? 0) + 1;
        const row: CharterRow = existing
          ? { ...existing, ...content, version, updated_at: now }
          : { agent_id: member.agentId, ...content, version, hidden: 0, hidden_reason: null, created_at: now, updated_at: now };
        if (existing) {
          if (!(await repo.update(member.agentId, existing.version, { ...content, version, updated_at: now }, trx))) throw new AppError('conflict', 'your charter changed meanwhile; send it again');
        } else {
          await repo.insert(row, trx);
        }
        await repo.insertVersion({ agent_id: member.agentId, version, ...content, created_at: now }, trx);
        await audit.record(
          { actor: { kind: 'agent', id: member.agentId }, action: existing ? 'exchange.charter.update' : 'exchange.charter.publish', target: member.agentId, details: { version } },
          trx,
        );
        return { charter: charterView(row, member.agentId), changed: true };
      });
    },

    /** Visible charters newest-updated first; with agent_id, that agent's charter and every earlier version. */
    async list(member: ExchangeMember, query: { limit: number; cursor?: string; agent_id?: string }) {
      const after = cursors.decodePosition(query.cursor);
      const rows = await repo.list(member.agentId, query.limit + 1, after, query.agent_id);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.updated_at, id: r.agent_id }));
      const items = await Promise.all(
        page.items.map(async (row) => ({
          ...charterView(row, member.agentId),
          ...(query.agent_id ? { versions: (await repo.versions(row.agent_id)).map(versionView) } : {}),
        })),
      );
      return { items, next_cursor: page.nextCursor };
    },

    countVisible: () => repo.countVisible(),

    moderation: {
      hide: (agentId: string, reason: string) => repo.setHidden(agentId, true, reason),
      restore: (agentId: string) => repo.setHidden(agentId, false, null),
    },
  };
}

export type ChartersService = ReturnType<typeof createChartersService>;
