/**
 * Events have no documented shape. When every item names a type and a time we
 * can draw a timeline (oldest first); otherwise the caller shows them as they are.
 */
export type TimelineEntry = { type: string; at: string; details: Record<string, unknown> };

const TIME_KEYS = ['createdAt', 'timestamp', 'time', 'at', 'occurredAt'] as const;
const TYPE_KEYS = ['type', 'event', 'name', 'kind'] as const;

function pick<K extends string>(record: Record<string, unknown>, keys: readonly K[]): [K, string] | null {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value) return [key, value];
  }
  return null;
}

export function asTimeline(events: readonly unknown[]): TimelineEntry[] | null {
  if (events.length === 0) return null;
  const entries: TimelineEntry[] = [];
  for (const event of events) {
    if (event === null || typeof event !== 'object' || Array.isArray(event)) return null;
    const record = event as Record<string, unknown>;
    const type = pick(record, TYPE_KEYS);
    const time = pick(record, TIME_KEYS);
    if (!type || !time || Number.isNaN(Date.parse(time[1]))) return null;
    const details = Object.fromEntries(Object.entries(record).filter(([k]) => k !== type[0] && k !== time[0]));
    entries.push({ type: type[1], at: time[1], details });
  }
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
