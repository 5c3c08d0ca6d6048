/**
 * Runs once when the server starts: a bad configuration stops the server with
 * a message naming the variable, instead of failing on the first request; then
 * the runtime (lib/server/runtime.ts) is built and its background work starts.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Before anything the server holds is made (lib/server/heap.ts).
  const { boundHeapGrowth } = await import('./lib/server/heap');
  boundHeapGrowth();
  const { assertStartable } = await import('./lib/server/startup');
  assertStartable();
  // A page whose upstream read failed answers its status (lib/server/page-status.ts).
  const { trackPageStatuses } = await import('./lib/server/page-status');
  trackPageStatuses();
  // The index syncs from server start, in the background (never during `next build`).
  if (process.env.NEXT_PHASE !== 'phase-production-build') {
    const { runtime } = await import('./lib/server/runtime');
    runtime().start();
  }
}
