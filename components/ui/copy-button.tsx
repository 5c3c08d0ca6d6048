'use client';

import { useEffect, useState } from 'react';

/** Copies `value`; its name says what ("Copy id"), and a live region says when it worked. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  return (
    <button type="button" onClick={copy} aria-label={`Copy ${label}`} title={`Copy ${label}`} className="icon-btn">
      <svg aria-hidden="true" className="size-3.5">
        <use href={state === 'copied' ? '#i-check' : '#i-copy'} />
      </svg>
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </button>
  );
}
