import 'server-only';
import { z } from 'zod';
import { getConfig } from './env';
import { logger } from './logger';

/**
 * A few real ids for the "Open by ID" box when the upstream is the sandbox,
 * read from its fixtures endpoint once. Only ids leave this module, never the
 * fixtures' keys.
 */
const fixturesSchema = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      key: z.string().optional(),
      collections: z.object({ integrated: z.array(z.string()), notIntegrated: z.array(z.string()) }),
      providers: z.array(z.string()),
    }),
  ),
});

async function load(baseUrl: string, key: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/__sandbox/fixtures`, {
    signal: AbortSignal.timeout(1000),
    cache: 'no-store',
  });
  const { accounts } = fixturesSchema.parse(await response.json());
  // The page's account's own records (another's would answer 403); the key only matches, it goes nowhere.
  const demo = accounts.find((a) => a.key === key) ?? accounts.find((a) => a.id === 'acc_demo') ?? accounts[0];
  if (!demo) return [];
  return [demo.collections.integrated[0], demo.collections.notIntegrated[0], demo.providers[0]].filter(
    (id): id is string => Boolean(id),
  );
}

/** How long after a failed read of the fixtures the pages go without examples before it is tried again. */
export const EXAMPLES_RETRY_MS = 60_000;

/**
 * The examples, read once and kept; a failed read leaves them out for `retryMs` before the next page tries
 * again. Every page's layout awaits them: retried on each page, a slow upstream made every page wait out
 * the read's 1 s timeout (the soak's slow phase: index-served pages at p50 793 ms against 38 ms).
 */
export function createExamples(
  read: () => Promise<string[]>,
  { now = Date.now, retryMs = EXAMPLES_RETRY_MS }: { now?: () => number; retryMs?: number } = {},
) {
  let examples: Promise<string[]> | undefined;
  let failedAt = -Infinity;
  return (): Promise<string[]> => {
    if (!examples && now() - failedAt < retryMs) return Promise.resolve([]);
    examples ??= read().catch((error: unknown) => {
      logger.warn({ err: String(error) }, 'sandbox fixtures unavailable');
      examples = undefined;
      failedAt = now();
      return [];
    });
    return examples;
  };
}

const examples = new Map<string, () => Promise<string[]>>();

/** A few ids of the account's own records, when the upstream is the sandbox. */
export async function sandboxExamples(account: { baseUrl: string; key: string }): Promise<string[]> {
  if (!getConfig().upstream.sandbox) return [];
  let read = examples.get(account.key);
  if (!read) examples.set(account.key, (read = createExamples(() => load(account.baseUrl, account.key))));
  return read();
}
