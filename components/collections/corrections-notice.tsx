'use client';

import { useEffect } from 'react';
import { CORRECTIONS_COOKIE } from '@/lib/api/list-corrections';

/**
 * What the page changed in the URL it was given, and why (issue 75: nothing dropped in silence). The words
 * come with the redirect, in a cookie this forgets once shown: a reload or the next filter says nothing again.
 */
export function CorrectionsNotice({ messages }: { messages: string[] }) {
  useEffect(() => {
    document.cookie = `${CORRECTIONS_COOKIE}=; Max-Age=0; Path=/collections; SameSite=Lax`;
  }, []);
  if (!messages.length) return null;
  return (
    <div
      role="status"
      aria-label="The address was corrected"
      className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">The address asked for what the list cannot read, so it was corrected:</p>
      <ul className="mt-1 list-disc pl-5">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}
