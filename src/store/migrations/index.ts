import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import * as spine from './20261121T0900_spine.js';
import * as harborProfiles from './20261121T1110_harbor_profiles.js';
import * as fleet from './20261121T1300_fleet.js';

export interface BosunMigration {
  up(db: Kysely<any>, dialect: DialectHelpers): Promise<void>;
}

/** Every migration, keyed by its timestamped name; applied in name order. */
export const MIGRATIONS: Record<string, BosunMigration> = {
  '20261121T0900_spine': spine,
  '20261121T1110_harbor_profiles': harborProfiles,
  '20261121T1300_fleet': fleet,
};
