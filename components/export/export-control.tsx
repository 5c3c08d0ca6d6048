'use client';

import { useRef, useState } from 'react';
import { Button, focusRing } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import { apiResponse, isApiFailure } from '@/lib/query/api-client';
import type { DeferredProps } from '@/components/ui/deferred';
import { EXPORT_BUTTON, type ExportCsvProps } from './export-props';
import { LIVE_EXPORT_MAX_ROWS as LIVE_MAX } from '@/lib/api/export';

const nf = new Intl.NumberFormat('en');

type Job =
  | { state: 'running'; received: number; total: number | null }
  | { state: 'failed'; message: string }
  | { state: 'done'; rows: number; name: string }
  | { state: 'cancelled' }
  | null;

/**
 * "Export CSV": the view as it stands (filters, sort and search; every page),
 * from the index as a plain download the browser streams to disk, or read
 * live from the API with a progress bar and Cancel. A live export that fails
 * part-way saves nothing and says so, with Retry: never a short file. Loaded at first use (export-csv.tsx).
 */
export default function ExportControl({
  query,
  filtered,
  indexOn,
  count,
  contactsAllowed,
  building = null,
  initialOpen = false,
  focusOnMount = false,
}: ExportCsvProps & DeferredProps) {
  const [contacts, setContacts] = useState(false);
  const [forPrograms, setForPrograms] = useState(false);
  const [live, setLive] = useState(!indexOn);
  const [job, setJob] = useState<Job>(null);
  const [open, setOpen] = useState(initialOpen);
  const abort = useRef<AbortController | null>(null);
  const liveOnly = !indexOn;
  const useLive = !filtered && (live || liveOnly);

  const params = new URLSearchParams(query);
  if (contacts) params.set('contacts', '1');
  if (useLive) params.set('live', '1');
  if (forPrograms) params.set('format', 'plain');
  const href = `/api/export/collections.csv?${params}`;

  async function runLive() {
    const controller = new AbortController();
    abort.current = controller;
    // The panel closes: the progress line and Cancel show beside the button.
    setOpen(false);
    setJob({ state: 'running', received: 0, total: null });
    try {
      // No time limit: a live export of 10,000 rows reads page by page for as long as that takes.
      const res = await apiResponse(href, { signal: controller.signal, timeoutMs: 0 });
      const total = Number(res.headers.get('x-total-count') ?? NaN);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'collections.csv';
      const reader = res.body!.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        for (const byte of value) if (byte === 10) lines++;
        // Lines less the header; a line break inside a quoted cell can only overcount, so it is capped.
        const received = Math.max(0, lines - 1);
        setJob({
          state: 'running',
          received: Number.isFinite(total) ? Math.min(received, total) : received,
          total: Number.isFinite(total) ? total : null,
        });
      }
      const url = URL.createObjectURL(new Blob(chunks, { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setJob({ state: 'done', rows: Math.max(0, lines - 1), name });
    } catch (error) {
      setJob(
        controller.signal.aborted
          ? { state: 'cancelled' }
          : isApiFailure(error) && error.code !== 'upstream_unreachable'
            ? { state: 'failed', message: error.message }
            : {
                state: 'failed',
                message: 'The export stopped part-way (the API or the connection failed): no file was saved.',
              },
      );
    } finally {
      abort.current = null;
    }
  }

  const running = job?.state === 'running';
  return (
    <div className="flex flex-col items-end gap-1">
      <Popover
        open={open}
        onOpenChange={setOpen}
        focusOnMount={focusOnMount}
        label="Export CSV"
        buttonClassName={EXPORT_BUTTON}
        panelClassName="right-0 w-80"
      >
        <div className="space-y-3 text-sm">
          <p className="text-zinc-700 dark:text-zinc-300">
            {filtered ? 'Every page of this view, in its order' : 'Every collection of the account, newest first'}
            {count !== undefined ? ` (${nf.format(count)} rows)` : ''}.
          </p>
          {building && !useLive ? (
            <p role="status" className="text-amber-900 dark:text-amber-200">
              The index is still being built: it holds {nf.format(building.indexed)}
              {building.of !== null ? ` of ${nf.format(building.of)}` : ''} collections, and the file holds only those.
            </p>
          ) : null}
          {contactsAllowed ? (
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                checked={contacts}
                onChange={(e) => setContacts(e.target.checked)}
                className="mt-1"
              />
              <span>
                Include contact details
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  Adds each customer’s e-mail and phone.
                </span>
              </span>
            </label>
          ) : (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Without contact details: exporting e-mails and phones is for admins.
            </p>
          )}
          <fieldset>
            <legend className="font-medium">File</legend>
            <label className="mt-1 flex items-start gap-2">
              <input
                type="radio"
                name="export-format"
                checked={!forPrograms}
                onChange={() => setForPrograms(false)}
                className="mt-1"
              />
              <span>
                For spreadsheets
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  A cell that a spreadsheet would run as a formula (=, +, -, @) starts with ’.
                </span>
              </span>
            </label>
            <label className="mt-1 flex items-start gap-2">
              <input
                type="radio"
                name="export-format"
                checked={forPrograms}
                onChange={() => setForPrograms(true)}
                className="mt-1"
              />
              <span>
                For programs
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  RFC 4180, every cell as it is (phones keep their +); not for opening in a spreadsheet.
                </span>
              </span>
            </label>
          </fieldset>
          {filtered ? null : (
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                checked={useLive}
                disabled={liveOnly}
                onChange={(e) => setLive(e.target.checked)}
                className="mt-1"
              />
              <span>
                Read live from the API
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {liveOnly ? 'The index is off, so the export reads the API. ' : 'Exactly now instead of the index. '}
                  Up to {nf.format(LIVE_MAX)} rows, read page by page.
                </span>
              </span>
            </label>
          )}
          {filtered && !indexOn ? (
            <p className="text-amber-800 dark:text-amber-300">
              Filtered exports need the index, which is off. Clear the filters to export live.
            </p>
          ) : useLive ? (
            <Button variant="primary" onClick={runLive} disabled={running}>
              Download CSV
            </Button>
          ) : (
            <a
              href={href}
              download
              onClick={() => setOpen(false)}
              className={`inline-flex rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300 ${focusRing}`}
            >
              Download CSV
            </a>
          )}
        </div>
      </Popover>
      <div aria-live="polite" className="text-sm">
        {job?.state === 'running' ? (
          <div className="flex items-center gap-2">
            <progress
              aria-label="Export progress"
              max={job.total ?? undefined}
              value={job.total === null ? undefined : job.received}
              className="w-32"
            />
            <span className="tabular-nums">
              {nf.format(job.received)}
              {job.total !== null ? ` of ${nf.format(job.total)}` : ''} rows
            </span>
            <Button onClick={() => abort.current?.abort()}>Cancel</Button>
          </div>
        ) : job?.state === 'failed' ? (
          <div role="alert" className="flex items-center gap-2 text-red-700 dark:text-red-400">
            <span>{job.message}</span>
            <Button onClick={runLive}>Retry</Button>
          </div>
        ) : job?.state === 'cancelled' ? (
          <span className="text-zinc-700 dark:text-zinc-300">Export cancelled: no file was saved.</span>
        ) : job?.state === 'done' ? (
          <span className="text-zinc-700 dark:text-zinc-300">
            Saved {job.name} ({nf.format(job.rows)} rows).
          </span>
        ) : null}
      </div>
    </div>
  );
}
