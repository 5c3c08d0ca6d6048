import 'server-only';
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-index';
import * as m0002 from './0002-rollups';
import * as m0003 from './0003-daily-durations';
import * as m0004 from './0004-completed-index';
import * as m0005 from './0005-covering-created';
import * as m0006 from './0006-audit';
import * as m0007 from './0007-drift';
import * as m0008 from './0008-completed-narrow';
import * as m0009 from './0009-list-columns';
import * as m0010 from './0010-opened-by-id';
import * as m0011 from './0011-reference-fragments';
import * as m0012 from './0012-name-words';
import * as m0013 from './0013-reference-created';
import * as m0014 from './0014-name-pairs-of-tokens';
import * as m0015 from './0015-saved-views';
import * as m0016 from './0016-account-identity';
import * as m0017 from './0017-history';
import * as m0018 from './0018-status-changes';
import * as m0019 from './0019-drift-acknowledged';
import * as m0020 from './0020-staged-tokens';
import * as m0021 from './0021-room-to-mark-seen';
import * as m0022 from './0022-visible-pages-kept';
import * as m0023 from './0023-name-counts';
import * as m0024 from './0024-references-without-nul';
import * as m0025 from './0025-details-by-rowid';
import * as m0026 from './0026-fragment-row-on-the-row';
import * as m0027 from './0027-collections-by-rowid';
import * as m0028 from './0028-accounts-never-renumbered';
import * as m0029 from './0029-audit-account';
import * as m0030 from './0030-notes-and-tags';
import * as m0031 from './0031-reports-and-alerts';

/**
 * Every migration, by its number. Listed here rather than read from the folder
 * at run time, because the server is bundled: a new migration is a new file
 * and a new line below, never an edit of an applied one. (The PostgreSQL branches of 0001, 0002, 0006
 * and 0007 were written before any PostgreSQL store existed; the SQL they give SQLite is unchanged.)
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-index': m0001,
  '0002-rollups': m0002,
  '0003-daily-durations': m0003,
  '0004-completed-index': m0004,
  '0005-covering-created': m0005,
  '0006-audit': m0006,
  '0007-drift': m0007,
  '0008-completed-narrow': m0008,
  '0009-list-columns': m0009,
  '0010-opened-by-id': m0010,
  '0011-reference-fragments': m0011,
  '0012-name-words': m0012,
  '0013-reference-created': m0013,
  '0014-name-pairs-of-tokens': m0014,
  '0015-saved-views': m0015,
  '0016-account-identity': m0016,
  '0017-history': m0017,
  '0018-status-changes': m0018,
  '0019-drift-acknowledged': m0019,
  '0020-staged-tokens': m0020,
  '0021-room-to-mark-seen': m0021,
  '0022-visible-pages-kept': m0022,
  '0023-name-counts': m0023,
  '0024-references-without-nul': m0024,
  '0025-details-by-rowid': m0025,
  '0026-fragment-row-on-the-row': m0026,
  '0027-collections-by-rowid': m0027,
  '0028-accounts-never-renumbered': m0028,
  '0029-audit-account': m0029,
  '0030-notes-and-tags': m0030,
  '0031-reports-and-alerts': m0031,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
