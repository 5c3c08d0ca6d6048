import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every thread of the server starts through `startThread` (start.ts), its bundled form written as the
 * bundler needs it to make a worker chunk of its own: `new Worker(new URL('./x.ts', import.meta.url),
 * { ...options })`. Any other shape builds, and a built server then fails to start the thread.
 */
const SERVER = fileURLToPath(new URL('..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });

describe('threads', () => {
  const workers = sources(SERVER).flatMap((path) =>
    [...readFileSync(path, 'utf8').matchAll(/new Worker\([^\n]*/g)].map((m) => ({ path, line: m[0] })),
  );

  it('are all started through startThread, in the one shape the bundler makes a chunk of', () => {
    expect(workers.length).toBeGreaterThanOrEqual(7);
    for (const { path, line } of workers.filter((w) => !w.path.endsWith('threads/start.ts')))
      expect(line, path).toMatch(
        /^new Worker\(new URL\('\.\/[\w-]+\.ts', import\.meta\.url\), \{ \.\.\.options \}\),?$/,
      );
  });
});
