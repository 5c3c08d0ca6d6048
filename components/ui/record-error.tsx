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
}: {
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
      <DetailError failure={failure} />
      {after}
    </div>
  );
}
