import { sql } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Trx } from '../../../store/transaction.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import type { ExchangeSkillsTable, ExchangeSkillTransfersTable, ExchangeSkillVersionsTable } from '../../../store/schema.js';

export type SkillRow = ExchangeSkillsTable;
export type SkillVersionRow = ExchangeSkillVersionsTable;
export type SkillTransferRow = ExchangeSkillTransfersTable;

export interface SkillFilter {
  ownerId?: string;
  tag?: string;
  /** Lower-case words; each must occur in the slug, title or description. */
  words?: string[];
  /** The viewer sees their own hidden skills; everybody else's hidden skills are left out. */
  viewerId: string;
}

/** LIKE pattern of a literal text (backslash escapes % and _). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Skills, their versions and their transfer offers. */
export function createSkillsRepo(db: Db) {
  return {
    async find(skillId: string, trx?: Trx): Promise<SkillRow | undefined> {
      return (trx ?? db).selectFrom('exchange_skills').selectAll().where('skill_id', '=', skillId).executeTakeFirst();
    },
    async findBySlug(ownerId: string, slug: string, trx?: Trx): Promise<SkillRow | undefined> {
      return (trx ?? db).selectFrom('exchange_skills').selectAll().where('owner_id', '=', ownerId).where('slug', '=', slug).executeTakeFirst();
    },
    async countOwned(ownerId: string, trx?: Trx): Promise<number> {
      const row = await (trx ?? db)
        .selectFrom('exchange_skills')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async countAll(): Promise<number> {
      const row = await db
        .selectFrom('exchange_skills')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('hidden', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Newest first, after `after`, at most `limit` rows. */
    async list(filter: SkillFilter, limit: number, after: ListPosition | undefined): Promise<SkillRow[]> {
      let q = db.selectFrom('exchange_skills').selectAll();
      q = q.where((eb) => eb.or([eb('hidden', '=', 0), eb('owner_id', '=', filter.viewerId)]));
      if (filter.ownerId) q = q.where('owner_id', '=', filter.ownerId);
      if (filter.tag) q = q.where('tags', 'like', containing(JSON.stringify(filter.tag)));
      for (const word of filter.words ?? []) {
        q = q.where(sql<boolean>`lower(slug || ' ' || title || ' ' || description) like ${containing(word)} escape '\\'`);
      }
      if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('skill_id', '<', after.id)])]));
      return q.orderBy('created_at', 'desc').orderBy('skill_id', 'desc').limit(limit).execute();
    },
    async insert(row: SkillRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_skills').values(row).execute();
    },
    /** Writes the next version when the row is still at `fromVersion`; false when another write came first. */
    async update(skillId: string, fromVersion: number, patch: Partial<SkillRow>, trx: Trx): Promise<boolean> {
      const r = await trx.updateTable('exchange_skills').set(patch).where('skill_id', '=', skillId).where('version', '=', fromVersion).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async setHidden(skillId: string, hidden: boolean, reason: string | null): Promise<boolean> {
      const r = await db
        .updateTable('exchange_skills')
        .set({ hidden: hidden ? 1 : 0, hidden_reason: reason })
        .where('skill_id', '=', skillId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async insertVersion(row: SkillVersionRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_skill_versions').values(row).execute();
    },
    async versions(skillId: string): Promise<SkillVersionRow[]> {
      return db.selectFrom('exchange_skill_versions').selectAll().where('skill_id', '=', skillId).orderBy('version', 'desc').execute();
    },

    async findTransfer(transferId: string, trx?: Trx): Promise<SkillTransferRow | undefined> {
      return (trx ?? db).selectFrom('exchange_skill_transfers').selectAll().where('transfer_id', '=', transferId).executeTakeFirst();
    },
    async pendingTransferOf(skillId: string, trx?: Trx): Promise<SkillTransferRow | undefined> {
      return (trx ?? db).selectFrom('exchange_skill_transfers').selectAll().where('skill_id', '=', skillId).where('state', '=', 'pending').executeTakeFirst();
    },
    async insertTransfer(row: SkillTransferRow, trx: Trx): Promise<void> {
      await trx.insertInto('exchange_skill_transfers').values(row).execute();
    },
    /** Moves a transfer out of `from`; false when its state changed meanwhile. */
    async resolveTransfer(transferId: string, from: string, to: string, at: number, trx?: Trx): Promise<boolean> {
      const r = await (trx ?? db).updateTable('exchange_skill_transfers').set({ state: to, resolved_at: at }).where('transfer_id', '=', transferId).where('state', '=', from).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Pending offers past their expiry become expired; returns how many. */
    async expireTransfers(now: number, trx?: Trx): Promise<number> {
      const r = await (trx ?? db)
        .updateTable('exchange_skill_transfers')
        .set((eb) => ({ state: sql.lit('expired'), resolved_at: eb.ref('expires_at') }))
        .where('state', '=', 'pending')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Transfers of one skill, newest first. */
    async transfersOf(skillId: string): Promise<SkillTransferRow[]> {
      return db.selectFrom('exchange_skill_transfers').selectAll().where('skill_id', '=', skillId).orderBy('created_at', 'desc').orderBy('transfer_id', 'desc').execute();
    },
    /** Pending offers an agent made or received. */
    async pendingTransfersOf(agentId: string): Promise<SkillTransferRow[]> {
      return db
        .selectFrom('exchange_skill_transfers')
        .selectAll()
        .where('state', '=', 'pending')
        .where((eb) => eb.or([eb('from_agent_id', '=', agentId), eb('to_agent_id', '=', agentId)]))
        .orderBy('created_at', 'asc')
        .execute();
    },
    async countPendingTransfers(): Promise<number> {
      const row = await db
        .selectFrom('exchange_skill_transfers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type SkillsRepo = ReturnType<typeof createSkillsRepo>;
