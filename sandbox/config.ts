import { resolve } from 'node:path';
import { z } from 'zod';

/** The sandbox's own settings, validated once; the message names the first bad variable. */
const schema = z.object({
  SANDBOX_PORT: z
    .string()
    .regex(/^\d+$/, 'must be a port number')
    .default('4010')
    .transform(Number)
    .pipe(z.number().int().min(1).max(65535)),
  SANDBOX_DB: z.string().min(1).default('.data/sandbox.sqlite'),
  SANDBOX_FAULTS: z.enum(['1', 'true', '0', 'false', '']).default(''),
  SANDBOX_SLOW_MS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds')
    .default('15000')
    .transform(Number),
  // Load tests only: every /public answer waits a random 0..N ms (a slow upstream).
  SANDBOX_DELAY_MS: z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').default('0').transform(Number),
  // Activity mode: the data changes over time (a new collection, now and then one paid), every N ms.
  SANDBOX_ACTIVITY: z.enum(['1', 'true', '0', 'false', '']).default(''),
  // The test-only rows in the seed (formula injection, for the CSV guard's tests): e2e only, never a newcomer's.
  SANDBOX_TEST_ROWS: z.enum(['1', 'true', '0', 'false', '']).default(''),
  SANDBOX_ACTIVITY_MS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds')
    .default('5000')
    .transform(Number)
    .pipe(z.number().int().min(100)),
});

export function sandboxConfig(env: Record<string, string | undefined> = process.env) {
  const result = schema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`Invalid sandbox configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const c = result.data;
  return {
    port: c.SANDBOX_PORT,
    host: '127.0.0.1',
    dbPath: resolve(c.SANDBOX_DB),
    faults: c.SANDBOX_FAULTS === '1' || c.SANDBOX_FAULTS === 'true',
    slowMs: c.SANDBOX_SLOW_MS,
    delayMs: c.SANDBOX_DELAY_MS,
    testRows: c.SANDBOX_TEST_ROWS === '1' || c.SANDBOX_TEST_ROWS === 'true',
    activityMs: c.SANDBOX_ACTIVITY === '1' || c.SANDBOX_ACTIVITY === 'true' ? c.SANDBOX_ACTIVITY_MS : 0,
  };
}
