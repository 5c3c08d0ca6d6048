import 'server-only';
import { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { parseBody, type ParsedBody } from '@/lib/api/envelopes';
import { startClient, type ThreadClient } from '../threads/client';
import { sibling } from '../threads/start';
import { logger } from '../logger';
import type { PageAnswer, PageJob } from './page-parse-worker';

/**
 * Where the upstream's list pages are read (upstream.ts's `parse`): a page of 100 is ~100 KB, and decoding
 * it (Node 20 decodes text holding non-ASCII letters at ~85 MB/s), parsing and checking it took the request
 * thread ~2.2 ms; the sandbox's rescan reads 50 a second, a first sync ~40. Here a thread of its own does
 * that, and the request thread takes the checked page as a structured clone (~1 ms). Anything else (a
 * record, a provider: ~1 KB) is read on the calling thread, and so is every page if the thread cannot start
 * or stops (a page it held is read here from its copy: nothing waits for a thread that is gone).
 */
export function createPageParser() {
  let client: ThreadClient<PageJob, PageAnswer> | null = null;
  let broken = false;
  let closing = false;
  /** Pages read on the thread, and read here (anything but a list page is not counted). */
  const counts = { thread: 0, here: 0 };

  const start = () =>
    startClient<PageJob, PageAnswer>({
      name: 'the list pages’ parser thread',
      bundled: (options) => new Worker(new URL('./page-parse-worker.ts', import.meta.url), { ...options }),
      source: sibling(import.meta.url, 'page-parse-worker.ts'),
      onDown: ({ error }) => {
        if (!closing && !broken)
          logger.warn(
            { err: error.message },
            'the list pages’ parser thread stopped: pages are read on the request thread',
          );
        broken = true;
        client = null;
      },
    });

  const here = <T>(schema: z.ZodType<T>, bytes: ArrayBuffer) => {
    counts.here += 1;
    return parseBody(schema, bytes);
  };

  return {
    /**
     * Reads a body: a list page (`kind`) on the thread, checked by the list envelope's schema there (the same
     * schema; each of Next's bundles has its own copy of the module, so it is told by the request's kind, not
     * by the schema object), anything else here with `schema`.
     */
    async parse<T>(schema: z.ZodType<T>, bytes: ArrayBuffer, kind: string): Promise<ParsedBody<T>> {
      if (kind !== 'list') return parseBody(schema, bytes);
      if (!broken) client ??= start();
      if (!client) return here(schema, bytes);
      try {
        // A copy goes to the thread (structured clone: a memcpy of ~100 KB); this one is kept to read here if
        // the thread stops before it answers.
        const parsed = (await client.request({ bytes })) as ParsedBody<T>;
        counts.thread += 1;
        return parsed;
      } catch {
        return here(schema, bytes);
      }
    },
    /** How many list pages were read on the thread and here. */
    counts: () => ({ ...counts }),
    /** Ends the thread (the process's shutdown); a page still waiting is read here. */
    async close(): Promise<void> {
      closing = true;
      const thread = client;
      client = null;
      broken = true;
      await thread?.end(new Error('the list pages’ parser thread is closed'));
    },
  };
}
export type PageParser = ReturnType<typeof createPageParser>;
