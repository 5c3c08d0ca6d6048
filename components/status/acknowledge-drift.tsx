'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { isApiFailure } from '@/lib/api/failure';
import { apiGet } from '@/lib/query/api-client';
import { Button } from '@/components/ui/button';

/**
 * "Acknowledge" on a new entry of the schema-drift report (admins): `POST /api/drift` moves it to the
 * baseline, and the page is read again. A refusal or a failure is said beside the button.
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
        onClick={() =>
          startTransition(async () => {
            setError(null);
            try {
              await apiGet('/api/drift', {
                method: 'POST',
                body: { kind, path, ...(value === undefined ? {} : { value }) },
              });
              router.refresh();
            } catch (failure) {
              setError(isApiFailure(failure) ? failure.message : 'Could not acknowledge it');
            }
          })
        }
      >
        {pending ? 'Acknowledging…' : 'Acknowledge'}
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </span>
  );
}
