'use client';

import { Deferred } from '@/components/ui/deferred';
import { EXPORT_BUTTON, type ExportCsvProps } from './export-props';

const load = () => import('./export-control').then((m) => m.default);

/** "Export CSV" (export-control.tsx): the button at once, the panel, downloads and progress at first use. */
export function ExportCsv(props: ExportCsvProps) {
  return (
    <div className="flex flex-col items-end gap-1">
      <Deferred load={load} props={props} label="Export CSV" buttonClassName={EXPORT_BUTTON} />
    </div>
  );
}
