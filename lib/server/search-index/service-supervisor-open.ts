import 'server-only';
import { resolve } from 'node:path';
import { appAccountKey } from '../accounts/app-key';
import { sandboxSecret } from '../data-secret';
import { createQueries } from './read';
import type { Running, ServiceDeps } from './service-supervisor';
import { blindKeys } from './shared/blind';
import { openIndexStore } from './store';
import { createSync } from './write/sync';

/**
 * Opens the index on the application's database: its secret (INDEX_SECRET, or the sandbox's file), the
 * store under the account's key, its queries and its sync. What to do when it fails is the supervisor's.
 */
export async function openRunning(deps: ServiceDeps, owner: string): Promise<Running> {
  const { database, clock, log } = deps;
  const connection = await database.open();
  // On the sandbox the secret is generated beside INDEX_PATH (replicas on one machine share it).
  const secret = deps.index.secret ?? sandboxSecret(resolve(deps.index.path));
  const keys = blindKeys(secret);
  const store = await openIndexStore({
    connection,
    setAside: database.takeSetAside(),
    keys,
    secret,
    // The account by its key (or INDEX_ACCOUNT), never its address; an index kept under the name an older
    // version gave it (its address and key) is carried over.
    account: keys.accountKey({ apiKey: deps.upstream.key, label: deps.index.account }),
    formerAccounts: [keys.addressedAccountKey(deps.upstream.baseUrl, deps.upstream.key)],
    onRebuild: () => log.warn({}, 'index: INDEX_SECRET changed since the index was written; rebuilding it'),
    onCarriedOver: () => log.info({}, 'index: kept the rows of this account from its former name (its address)'),
  });
  const sync = createSync({
    store,
    readPage: deps.readPage,
    now: clock.now,
    rps: deps.index.syncRps,
    pollMs: deps.index.pollMs,
    accountRetentionDays: deps.index.accountRetentionDays,
    historyRetentionDays: deps.index.historyRetentionDays,
    owner,
    log,
    url: deps.url,
  });
  return { store, queries: createQueries(store, {}, appAccountKey(deps.upstream.key)), sync, secret };
}
