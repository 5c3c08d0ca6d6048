import type { ReactNode } from 'react';
import type { ApiFailure } from '@/lib/api/failure';
import { DetailError } from './detail-error';

/** A record page whose read failed (upstream down, slow, key rejected): its id, what went wrong, Retry. */
export function RecordError({
  noun,
  id,
  failure,
  before,
  after,
  path,
}: {
  /** The record's path (`/collections/pay_…`): where "Open in <account>" goes, in the owner's account. */
  path: string;
  noun: string;
  id: string;
  failure: ApiFailure;
  before?: ReactNode;
  /** What else the dashboard knows of the record (the index's last copy of a collection). */
  after?: ReactNode;
}) {
  return (
    <div className="space-y-4">
      {before}
      <h1 className="text-xl font-semibold">
        {noun} <span className="font-mono text-base">{id}</span>
      </h1>
      {failure.ownerAccount ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">{failure.message}.</p>
          <p className="mt-1">
            The account you are in cannot read it. {/* A full load: the other account's shell, switcher and links. */}
            <a className="link-strong" href={`${path}?account=${encodeURIComponent(failure.ownerAccount.id)}`}>
              Open in {failure.ownerAccount.name}
            </a>
          </p>
        </div>
      ) : (
        <DetailError failure={failure} />
      )}
      {after}
    </div>
  );
}
