'use client';

import { Button } from './button';
import { CopyButton } from './copy-button';

/** The raw record as the API returned it: collapsible, copyable, downloadable. */
export function JsonView({ value, filename }: { value: unknown; filename: string }) {
  const text = JSON.stringify(value, null, 2);

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <details className="group rounded-lg border border-zinc-200 dark:border-zinc-800">
      <summary className="cursor-pointer select-none px-4 py-3 font-medium focus-visible:outline-2 focus-visible:outline-sky-600">
        Raw JSON
      </summary>
      <div className="border-t border-zinc-200 p-4 dark:border-zinc-800">
        <div className="mb-2 flex items-center gap-2">
          <span className="inline-flex items-center gap-1 text-sm">
            Copy JSON <CopyButton value={text} label="JSON" />
          </span>
          <Button onClick={download}>Download JSON</Button>
        </div>
        <pre
          tabIndex={0}
          aria-label="Raw JSON"
          className="max-h-[32rem] overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs dark:bg-zinc-900"
        >
          {text}
        </pre>
      </div>
    </details>
  );
}
