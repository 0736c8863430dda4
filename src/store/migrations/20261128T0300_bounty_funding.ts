import type { Kysely } from 'kysely';

/**
 * Issue 30 (docs/decisions/117): a bounty is funded from the poster's reputation (an escrow entry in
 * the ledger) or from its starter allowance (no ledger entry); bounties posted before were escrowed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('exchange_bounties')
    .addColumn('funding', 'text', (c) => c.notNull().defaultTo('reputation'))
    .execute();
}
