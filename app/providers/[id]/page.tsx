import type { Metadata } from 'next';
import { OnOffBadge } from '@/components/ui/badge';
import { Copyable } from '@/components/ui/copyable';
import { ExtraFields } from '@/components/ui/extra-fields';
import { JsonView } from '@/components/ui/json-view';
import { BackToList } from '@/components/collections/detail/back-to-list';
import { RecordActions } from '@/components/recent/record-actions';
import { RecordError } from '@/components/ui/record-error';
import { Field, Fields } from '@/components/ui/section';
import { DateTime } from '@/components/ui/date-time';
import { readRecord, recordForPage } from '@/lib/server/reads/record-page';
import { pageRuntime } from '@/lib/server/page-runtime';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const result = await readRecord(await pageRuntime(), 'provider', id);
  return { title: result.ok ? `${result.data.name} · Provider` : 'Provider' };
}

export default async function ProviderPage({ params }: Props) {
  const { id } = await params;
  const result = await recordForPage(await pageRuntime(), 'provider', id);
  if (!result.ok)
    return (
      <RecordError noun="Provider" id={id} path={`/providers/${id}`} failure={result.failure} before={<BackToList />} />
    );

  const p = result.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <BackToList />
        <RecordActions
          record={{ kind: 'provider', id: p.id, label: p.name || p.id, detail: p.enabled ? 'enabled' : 'disabled' }}
          minorUnits={false}
        />
      </div>
      <div className="flex flex-col gap-4 rounded-lg border border-zinc-200 p-4 lg:flex-row lg:justify-between dark:border-zinc-800">
        <div className="space-y-2">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Provider</p>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            {p.name || <span className="italic">(no name)</span>}
            <OnOffBadge on={p.enabled} onText="Enabled" offText="Disabled" />
          </h1>
          <Fields>
            <Field term="Slug">
              <Copyable value={p.slug} label="slug" />
            </Field>
            <Field term="ID">
              <Copyable value={p.id} label="id" />
            </Field>
          </Fields>
        </div>
        <Fields>
          <Field term="Created">
            <DateTime iso={p.createdAt} seconds zone />
          </Field>
          <Field term="Updated">
            <DateTime iso={p.updatedAt} seconds zone />
          </Field>
        </Fields>
      </div>
      <ExtraFields record={p} kind="provider" />
      <JsonView value={p} filename={`${p.id}.json`} />
    </div>
  );
}
