import 'server-only';
import { stillLeader } from './sync-lease';
import { PAGE_LIMIT, stamp, type SyncRun } from './sync-state';

/**
 * A head poll, every `pollMs` between scan pages: page 1 (what is new, and how many there are), then the
 * last page (what the end of the list holds now), one per step. A poll that completes is due again
 * `pollMs` later.
 */
export async function poll(run: SyncRun): Promise<void> {
  const { deps } = run;
  const head = run.poll;
  const { store } = deps;
  run.lastRead = 'poll';
  if (!head.stage) head.stage = 'head';
  if (head.stage === 'head') {
    const page = await deps.readPage(1, PAGE_LIMIT, run.halt.signal);
    if (!(await stillLeader(run))) return;
    // The count with the page's rows, in one transaction (records-upsert.ts): never new rows beside an older count.
    await store.upsert(page.data, await stamp(run), { upstreamCount: page.meta.count });
    head.tailPage = Math.max(1, Math.ceil(page.meta.count / PAGE_LIMIT));
    if (head.tailPage > 1) {
      head.stage = 'tail';
      return;
    }
  } else {
    const page = await deps.readPage(head.tailPage, PAGE_LIMIT, run.halt.signal);
    if (!(await stillLeader(run))) return;
    await store.upsert(page.data, await stamp(run), { upstreamCount: page.meta.count });
  }
  head.stage = null;
  head.attempts = 0;
  head.nextAt = deps.now() + deps.pollMs;
  await store.saveState({ last_poll_at: await stamp(run) });
}
