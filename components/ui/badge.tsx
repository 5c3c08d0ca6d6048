import type { ReactNode } from 'react';
import { label, statusMeaning, type StatusMeaning } from '@/lib/format/labels';

const TONES = {
  neutral: 'badge-neutral',
  blue: 'badge-blue',
  green: 'badge-green',
  amber: 'badge-amber',
  violet: 'badge-violet',
  red: 'badge-red',
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

const MEANING_TONE: Record<StatusMeaning, BadgeTone> = {
  paid: 'green',
  waiting: 'amber',
  ended: 'neutral',
  failed: 'red',
};

/**
 * A status badge that means something without colour: a paid status has a
 * check, a waiting one a clock, an ended one a struck circle, a failed one a
 * cross (icons drawn once in the layout), each with its label. A value we do
 * not know is shown verbatim, neutral, without an icon: we claim nothing.
 */
export function StatusBadge({ status }: { status: string }) {
  return statusBadge(status);
}

/** StatusBadge's markup as a plain call: a table's cells render it without a component each. */
export function statusBadge(status: string) {
  const meaning = statusMeaning(status);
  const l = label(status);
  if (!meaning) return <Badge>{l.text || '(empty)'}</Badge>;
  return (
    <span className={`badge badge-icon ${TONES[MEANING_TONE[meaning]]}`}>
      <svg aria-hidden="true">
        <use href={`#i-${meaning}`} />
      </svg>
      {l.text}
    </span>
  );
}

/** An open-enum value as text (a table cell's quieter form): the label, or the raw value in mono. */
export function EnumText({ value }: { value: string }) {
  return enumText(value);
}

/** EnumText's markup as a plain call (`key` for a list of them). */
export function enumText(value: string, key?: string) {
  const l = label(value);
  return l.known ? (
    <span key={key}>{l.text}</span>
  ) : (
    <span key={key} className="font-mono text-xs">
      {l.text || '(empty)'}
    </span>
  );
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
