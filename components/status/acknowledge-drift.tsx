'use client';

import { useRouter } from '@/components/account/account-scope';
import { useState, useTransition } from 'react';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';
import { Button } from '@/components/ui/button';

/** The id of /status's polite announcement of what an acknowledgement did. */
export const DRIFT_ANNOUNCE = 'drift-announce';

/**
 * "Acknowledge" on a new entry of the schema-drift report (admins): `POST /api/drift` moves it to the
 * baseline, and the page is read again. The row and its button go: the report's heading takes the focus and
 * its announcement says what happened. A refusal or a failure is said beside the button.
 */
export function AcknowledgeDrift({ kind, path, value }: { kind: 'field' | 'value'; path: string; value?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const name = value === undefined ? path : `${path} ${value}`;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        className="px-2 py-1 text-xs"
        aria-label={`Acknowledge ${name}`}
        disabled={pending}
        aria-busy={pending}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            try {
              await apiGet('/api/drift', {
                method: 'POST',
                body: { kind, path, ...(value === undefined ? {} : { value }) },
              });
              const announce = document.getElementById(DRIFT_ANNOUNCE);
              if (announce) announce.textContent = `Acknowledged ${name}: it is in the baseline now.`;
              document.getElementById('drift')?.focus();
              router.refresh();
            } catch (failure) {
              setError(isApiFailure(failure) ? failure.message : 'Could not acknowledge it');
            }
          })
        }
      >
        Acknowledge
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </span>
  );
}
