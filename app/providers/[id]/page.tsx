import type { Metadata } from 'next';
import { OnOffBadge } from '@/components/ui/badge';
import { Copyable } from '@/components/ui/copyable';
import { ExtraFields } from '@/components/ui/extra-fields';
import { JsonView } from '@/components/ui/json-view';
import { RecordActions } from '@/components/recent/record-actions';
import { RecordError } from '@/components/ui/record-error';
import { Field, Fields } from '@/components/ui/section';
import { TimeAgo } from '@/components/ui/time-ago';
import { readRecord, recordForPage } from '@/lib/server/record-page';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const result = await readRecord('provider', id);
  return { title: result.ok ? `${result.data.name} · Provider` : 'Provider' };
}

export default async function ProviderPage({ params }: Props) {
  const { id } = await params;
  const result = await recordForPage('provider', id);
  if (!result.ok) return <RecordError noun="Provider" id={id} failure={result.failure} />;

  const p = result.data;
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <RecordActions
          record={{ kind: 'provider', id: p.id, label: p.name || p.id, detail: p.enabled ? 'enabled' : 'disabled' }}
          minorUnits={false}
        />
      </div>
      <div className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Provider</p>
        <h1 className="mb-3 flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
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
          <Field term="Created">
            <TimeAgo iso={p.createdAt} />
          </Field>
          <Field term="Updated">
            <TimeAgo iso={p.updatedAt} />
          </Field>
        </Fields>
      </div>
      <ExtraFields record={p} kind="provider" />
      <JsonView value={p} filename={`${p.id}.json`} />
    </div>
  );
}
