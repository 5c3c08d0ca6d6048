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
      collections: z.object({ integrated: z.array(z.string()), notIntegrated: z.array(z.string()) }),
      providers: z.array(z.string()),
    }),
  ),
});

let examples: Promise<string[]> | undefined;

async function load(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/__sandbox/fixtures`, {
    signal: AbortSignal.timeout(1000),
    cache: 'no-store',
  });
  const { accounts } = fixturesSchema.parse(await response.json());
  const demo = accounts.find((a) => a.id === 'acc_demo') ?? accounts[0];
  if (!demo) return [];
  return [demo.collections.integrated[0], demo.collections.notIntegrated[0], demo.providers[0]].filter(
    (id): id is string => Boolean(id),
  );
}

export async function sandboxExamples(): Promise<string[]> {
  const { upstream } = getConfig();
  if (!upstream.sandbox) return [];
  examples ??= load(upstream.baseUrl).catch((error: unknown) => {
    logger.warn({ err: String(error) }, 'sandbox fixtures unavailable');
    examples = undefined; // try again next time
    return [];
  });
  return examples;
}
