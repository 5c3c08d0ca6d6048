import 'server-only';
import { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { collectionListEnvelopeSchema, parseBody, type ParsedBody } from '@/lib/api/envelopes';
import { bundled, sourceThread } from '../database/threads';
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
  let worker: Worker | null = null;
  let broken = false;
  let nextId = 1;
  /** Pages read on the thread, and read here (anything but a list page is not counted). */
  const counts = { thread: 0, here: 0 };
  const pending = new Map<number, { bytes: ArrayBuffer; resolve: (parsed: ParsedBody<unknown>) => void }>();
  /** Pages waiting keep the process alive (a script's last read); an idle thread never does. */
  const keepAlive = () => (pending.size ? worker?.ref() : worker?.unref());

  function giveUp(why?: unknown) {
    if (why !== undefined && !broken)
      logger.warn({ err: String(why) }, 'the list pages’ parser thread stopped: pages are read on the request thread');
    broken = true;
    worker = null;
    for (const { bytes, resolve } of pending.values()) {
      counts.here += 1;
      resolve(parseBody(collectionListEnvelopeSchema, bytes));
    }
    pending.clear();
  }

  function start(): Worker | null {
    try {
      const thread = bundled()
        ? new Worker(new URL('./page-parse-worker.ts', import.meta.url))
        : sourceThread(import.meta.url.replace(/page-parser\.ts$/, 'page-parse-worker.ts'), {});
      thread.on('message', ({ id, parsed }: PageAnswer) => {
        const waiting = pending.get(id);
        if (!waiting) return;
        pending.delete(id);
        keepAlive();
        counts.thread += 1;
        waiting.resolve(parsed);
      });
      thread.on('error', giveUp);
      thread.on('exit', (code) => giveUp(`exit ${code}`));
      return thread;
    } catch {
      broken = true;
      return null;
    }
  }

  return {
    /**
     * Reads a body: a list page (`kind`) on the thread, checked by the list envelope's schema there (the same
     * schema; each of Next's bundles has its own copy of the module, so it is told by the request's kind, not
     * by the schema object), anything else here with `schema`.
     */
    parse<T>(schema: z.ZodType<T>, bytes: ArrayBuffer, kind: string): Promise<ParsedBody<T>> {
      if (kind !== 'list') return Promise.resolve(parseBody(schema, bytes));
      if (!broken) worker ??= start();
      if (!worker) {
        counts.here += 1;
        return Promise.resolve(parseBody(schema, bytes));
      }
      const id = nextId++;
      return new Promise((resolve) => {
        // A copy goes to the thread (structured clone: a memcpy of ~100 KB); this one is kept to read here if
        // the thread stops before it answers.
        worker!.postMessage({ id, bytes } satisfies PageJob);
        pending.set(id, { bytes, resolve: resolve as (parsed: ParsedBody<unknown>) => void });
        keepAlive();
      });
    },
    /** How many list pages were read on the thread and here. */
    counts: () => ({ ...counts }),
    /** Ends the thread (the process's shutdown); a page still waiting is read here. */
    async close(): Promise<void> {
      const thread = worker;
      if (!thread) return;
      thread.removeAllListeners('exit');
      await thread.terminate();
      giveUp();
    },
  };
}
export type PageParser = ReturnType<typeof createPageParser>;
