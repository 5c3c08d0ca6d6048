import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { BulkLookup } from '@/components/lookup/bulk-lookup';
import { RecentRecords } from '@/components/recent/recent-records';
import { requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';

export const metadata: Metadata = { title: 'Lookup' };

/**
 * `/lookup`: a support agent pastes a ticket and gets every record it names.
 * The text stays in the browser; only the ids, e-mails, phones and references
 * found in it are asked of the dashboard's /api, each on its own.
 */
export default async function LookupPage() {
  await requestContext().catch(() => unauthorized());
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold tracking-tight">Lookup</h1>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <BulkLookup minorUnits={getConfig().amountMinorUnits} />
        <RecentRecords />
      </div>
    </>
  );
}
