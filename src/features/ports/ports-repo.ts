import type { Db } from '../../store/db.js';
import type { PortImportRowsTable } from '../../store/schema.js';

export type PortImportRow = PortImportRowsTable;

/** Imported port source rows and the counter that tells processes to rebuild their table (docs/decisions/026). */
export function createPortsRepo(db: Db) {
  const currentVersion = db.selectFrom('port_import_version').select('version').where('id', '=', 1).compile();
  return {
    async version(): Promise<number> {
      const { rows } = await db.executeQuery<{ version: number | string }>(currentVersion);
      return Number(rows[0]!.version);
    },
    /** Every imported row, with the version they make up (read in one transaction). */
    async snapshot(): Promise<{ version: number; rows: PortImportRow[] }> {
      return db.transaction().execute(async (trx) => {
        const version = await trx.selectFrom('port_import_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
        const rows = await trx.selectFrom('port_import_rows').selectAll().orderBy('kind').orderBy('key').execute();
        return { version: Number(version.version), rows };
      });
    },
    /** Records the rows (replacing those with the same kind and key) and bumps the version, in one transaction. */
    async record(rows: PortImportRow[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 500) {
          await trx
            .insertInto('port_import_rows')
            .values(rows.slice(i, i + 500))
            .onConflict((oc) =>
              oc.columns(['kind', 'key']).doUpdateSet((eb) => ({
                row: eb.ref('excluded.row'),
                source_file: eb.ref('excluded.source_file'),
                line: eb.ref('excluded.line'),
                imported_at: eb.ref('excluded.imported_at'),
              })),
            )
            .execute();
        }
        await trx
          .updateTable('port_import_version')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('id', '=', 1)
          .execute();
        const version = await trx.selectFrom('port_import_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
        return Number(version.version);
      });
    },
  };
}

export type PortsRepo = ReturnType<typeof createPortsRepo>;
