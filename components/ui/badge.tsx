import type { ReactNode } from 'react';
import { label } from '@/lib/format/labels';

const TONES = {
  neutral: 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-600',
  blue: 'bg-sky-50 text-sky-900 ring-sky-300 dark:bg-sky-950 dark:text-sky-100 dark:ring-sky-700',
  green: 'bg-emerald-50 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-700',
  amber: 'bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-700',
  violet: 'bg-violet-50 text-violet-900 ring-violet-300 dark:bg-violet-950 dark:text-violet-100 dark:ring-violet-700',
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = 'neutral', children, title }: { tone?: BadgeTone; children: ReactNode; title?: string }) {
  return (
    <span title={title} className={`inline-flex items-center whitespace-nowrap rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}

const STATUS_TONE: Record<string, BadgeTone> = { pending: 'amber' };

/** A status badge: known values get a label and colour, others are verbatim and neutral. */
export function StatusBadge({ status }: { status: string }) {
  const l = label(status);
  return <Badge tone={l.known ? (STATUS_TONE[status] ?? 'blue') : 'neutral'}>{l.text}</Badge>;
}

/** An open-enum value: a friendly label when known, the raw value in mono otherwise. */
export function EnumBadge({ value, tone = 'blue' }: { value: string; tone?: BadgeTone }) {
  const l = label(value);
  return l.known ? <Badge tone={tone}>{l.text}</Badge> : <Badge><span className="font-mono">{l.text || '(empty)'}</span></Badge>;
}

export function OnOffBadge({ on, onText = 'On', offText = 'Off' }: { on: boolean; onText?: string; offText?: string }) {
  return <Badge tone={on ? 'green' : 'neutral'}>{on ? onText : offText}</Badge>;
}
