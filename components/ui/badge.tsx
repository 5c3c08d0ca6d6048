import type { ReactNode } from 'react';
import { label } from '@/lib/format/labels';

const TONES = {
  neutral: 'badge-neutral',
  blue: 'badge-blue',
  green: 'badge-green',
  amber: 'badge-amber',
  violet: 'badge-violet',
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({
  tone = 'neutral',
  children,
  title,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  title?: string;
}) {
  return (
    <span title={title} className={`badge ${TONES[tone]}`}>
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
  return l.known ? (
    <Badge tone={tone}>{l.text}</Badge>
  ) : (
    <Badge>
      <span className="font-mono">{l.text || '(empty)'}</span>
    </Badge>
  );
}

export function OnOffBadge({ on, onText = 'On', offText = 'Off' }: { on: boolean; onText?: string; offText?: string }) {
  return <Badge tone={on ? 'green' : 'neutral'}>{on ? onText : offText}</Badge>;
}
