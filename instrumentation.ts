/**
 * Runs once when the server starts: a bad configuration stops the server with
 * a message naming the variable, instead of failing on the first request; then
 * the search index starts syncing and the audit log takes entries.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { assertStartable } = await import('./lib/server/startup');
  assertStartable();
  // The index syncs from server start, in the background (never during `next build`).
  if (process.env.NEXT_PHASE !== 'phase-production-build') {
    const { indexService } = await import('./lib/server/search-index/service');
    indexService().start();
    // The audit log from the start: refused requests (proxy.ts) reach it even before anyone signs in.
    const { auditLog } = await import('./lib/server/audit/audit');
    auditLog();
  }
}
