/**
 * Runs once when the server starts: a bad configuration stops the server with
 * a message naming the variable, instead of failing on the first request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { assertStartable } = await import('./lib/server/startup');
  assertStartable();
}
