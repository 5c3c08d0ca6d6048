import { fieldLabel, label } from '@/lib/format/labels';

/**
 * A readable view of values whose shape the seed leaves open (payable options,
 * events, unknown fields): primitives as text, arrays as lists, objects as
 * term/definition pairs. Never `[object Object]`. `human` words it for a
 * reader rather than a developer (payment options, event details): "Bank
 * name" for `bankName` (the field's own name on hover), "Not set" for null,
 * "Yes"/"No", labels for known values; unknown fields keep their raw names.
 */
const MAX_DEPTH = 6;

function Primitive({ value, human }: { value: unknown; human: boolean }) {
  if (human) {
    if (value === null || value === undefined) return <span className="text-zinc-600 dark:text-zinc-400">Not set</span>;
    if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
    if (typeof value === 'string' && value && label(value).known) return <span>{label(value).text}</span>;
  }
  if (value === null) return <span className="font-mono text-zinc-600 dark:text-zinc-400">null</span>;
  if (value === undefined) return <span className="font-mono text-zinc-600 dark:text-zinc-400">undefined</span>;
  if (typeof value === 'boolean') return <span className="font-mono">{String(value)}</span>;
  if (typeof value === 'number' || typeof value === 'bigint')
    return <span className="font-mono tabular-nums">{String(value)}</span>;
  if (typeof value === 'string')
    return value === '' ? (
      <span className="italic text-zinc-600 dark:text-zinc-400">(empty string)</span>
    ) : (
      <span className="wrap-anywhere">{value}</span>
    );
  return <span className="font-mono">{JSON.stringify(value)}</span>;
}

export function KeyValue({ value, depth = 0, human = false }: { value: unknown; depth?: number; human?: boolean }) {
  if (depth >= MAX_DEPTH) return <span className="font-mono text-xs break-all">{JSON.stringify(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="italic text-zinc-600 dark:text-zinc-400">(empty list)</span>;
    return (
      <ol className="list-inside list-decimal space-y-1">
        {value.map((item, i) => (
          <li key={i}>
            <KeyValue value={item} depth={depth + 1} human={human} />
          </li>
        ))}
      </ol>
    );
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return <span className="italic text-zinc-600 dark:text-zinc-400">(empty object)</span>;
    return (
      <dl className="grid grid-cols-[minmax(6rem,max-content)_1fr] gap-x-3 gap-y-1 rounded border border-zinc-200 p-2 text-sm dark:border-zinc-800">
        {entries.map(([key, item]) => (
          <div key={key} className="contents">
            {human ? (
              <dt className="text-zinc-600 dark:text-zinc-400" title={key}>
                {fieldLabel(key)}
              </dt>
            ) : (
              <dt className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</dt>
            )}
            <dd className="min-w-0">
              <KeyValue value={item} depth={depth + 1} human={human} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <Primitive value={value} human={human} />;
}
