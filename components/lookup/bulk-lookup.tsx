'use client';

import Link from '@/components/account/account-scope';
import pLimit from 'p-limit';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { usePageAccount } from '@/components/account/account-scope';
import { Button, focusRing } from '@/components/ui/button';
import { PlainTable } from '@/components/ui/plain-table';
import { StatusBadge } from '@/components/ui/badge';
import { extractFindings, MAX_FINDINGS, MAX_PASTE_BYTES, pasteBytes, type Finding } from '@/lib/lookup/extract';
import {
  KIND_LABELS,
  lookupTsv,
  resolveFinding,
  resultText,
  type Resolution,
  type Summary,
} from '@/lib/lookup/resolve';
import { formatAmount } from '@/lib/format/money';

/** At most this many lookups in flight at once (the upstream's rate limit is shared with everyone). */
const CONCURRENCY = 4;
const nf = new Intl.NumberFormat('en');
const kb = (bytes: number) => `${nf.format(Math.ceil(bytes / 1024))} KB`;

type Row = { finding: Finding; resolution?: Resolution };

/**
 * `/lookup` (contract section 9): paste anything, get one row per id, e-mail,
 * phone or reference found in it, each looked up on its own (ids live through
 * /api, the rest in the index) with its own state and Retry.
 */
export function BulkLookup({ minorUnits }: { minorUnits: boolean }) {
  const money = (amount: Summary['amount']) => formatAmount(amount, { minorUnits });
  const [rows, setRows] = useState<Row[]>([]);
  const account = usePageAccount();
  const [total, setTotal] = useState(0);
  const [refused, setRefused] = useState<string | null>(null);
  const [looked, setLooked] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const run = useRef<{ abort: AbortController; limit: ReturnType<typeof pLimit> } | null>(null);
  const textId = useId();
  const hintId = useId();

  useEffect(() => () => run.current?.abort.abort(), []);

  function resolve(finding: Finding, index: number) {
    const current = run.current!;
    void current
      .limit(() => resolveFinding(finding, fetch, current.abort.signal))
      .then(
        (resolution) => {
          if (current.abort.signal.aborted) return;
          setRows((all) => all.map((row, i) => (i === index ? { ...row, resolution } : row)));
        },
        () => {}, // aborted: a new lookup replaced this one
      );
  }

  function lookUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('ticket') ?? '');
    run.current?.abort.abort();
    setCopied(null);
    const bytes = pasteBytes(text);
    if (bytes > MAX_PASTE_BYTES) {
      setRefused(
        `That paste is ${kb(bytes)}; Lookup reads at most ${kb(MAX_PASTE_BYTES)} (1 MB). Paste the part with the ids, e-mails or references.`,
      );
      setRows([]);
      setTotal(0);
      setLooked(false);
      return;
    }
    setRefused(null);
    const { findings, total } = extractFindings(text);
    run.current = { abort: new AbortController(), limit: pLimit(CONCURRENCY) };
    setRows(findings.map((finding) => ({ finding })));
    setTotal(total);
    setLooked(true);
    findings.forEach(resolve);
  }

  function retry(index: number) {
    setRows((all) => all.map((row, i) => (i === index ? { finding: row.finding } : row)));
    resolve(rows[index]!.finding, index);
  }

  async function copyResults() {
    try {
      await navigator.clipboard.writeText(lookupTsv(rows, window.location.origin, money, account));
      setCopied(`Copied ${rows.length} row${rows.length === 1 ? '' : 's'} as tab-separated text`);
    } catch {
      setCopied('The browser did not allow copying; select the table and copy it instead');
    }
  }

  const done = rows.filter((r) => r.resolution).length;
  const count = (state: Resolution['state']) => rows.filter((r) => r.resolution?.state === state).length;
  const progress = !looked
    ? ''
    : !rows.length
      ? 'Nothing to look up: no ids, e-mails, phone numbers or references found in the text.'
      : done < rows.length
        ? `Looking up… ${nf.format(done)} of ${nf.format(rows.length)} done`
        : `${nf.format(rows.length)} looked up: ${[
            [count('found') + count('matches'), 'found'],
            [count('none') + count('not_found'), 'not found'],
            [count('other_account'), 'in another account'],
            [count('error'), 'failed'],
          ]
            .filter(([n]) => n)
            .map(([n, what]) => `${nf.format(n as number)} ${what}`)
            .join(', ')}`;

  return (
    <div>
      <form onSubmit={lookUp} className="space-y-2">
        <label htmlFor={textId} className="block text-sm font-medium">
          Paste a ticket
        </label>
        <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-400">
          An e-mail thread, a ticket or a spreadsheet column: every collection or provider id, dashboard link, e-mail
          address, phone number and reference in it is looked up (at most {nf.format(MAX_FINDINGS)}, from at most 1 MB
          of text). Nothing you paste is stored.
        </p>
        <textarea
          id={textId}
          name="ticket"
          rows={8}
          aria-describedby={hintId}
          spellCheck={false}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) e.currentTarget.form?.requestSubmit();
          }}
          className={`block w-full rounded-md border border-zinc-300 bg-white p-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary">
            Look up
          </Button>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">or Ctrl+Enter</span>
        </div>
      </form>

      {refused ? (
        <p
          role="alert"
          className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {refused}
        </p>
      ) : null}

      <p role="status" className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">
        {progress}
        {total > rows.length
          ? ` Showing the first ${nf.format(rows.length)} of ${nf.format(total)} findings; look up the rest in a second paste.`
          : ''}
      </p>

      {rows.length ? (
        <>
          <div className="mt-2 flex items-center gap-3">
            <Button onClick={copyResults} disabled={done < rows.length}>
              Copy results
            </Button>
            <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
              {copied}
            </span>
          </div>
          <PlainTable
            caption="Lookup results"
            className="mt-3"
            cellClassName="px-3 py-2"
            bodyClassName=""
            headers={['Found', 'Kind', 'Result']}
          >
            {rows.map((row, i) => (
              <tr
                key={`${row.finding.kind}:${row.finding.value}`}
                className="border-t border-zinc-100 dark:border-zinc-900"
              >
                <th scope="row" className="max-w-64 px-3 py-2 font-mono text-xs font-normal break-all">
                  {row.finding.value}
                </th>
                <td className="px-3 py-2 whitespace-nowrap">{KIND_LABELS[row.finding.kind]}</td>
                <td className="px-3 py-2">
                  <Result
                    resolution={row.resolution}
                    label={row.finding.value}
                    money={money}
                    onRetry={() => retry(i)}
                  />
                </td>
              </tr>
            ))}
          </PlainTable>
        </>
      ) : null}
    </div>
  );
}

const link = `rounded underline underline-offset-2 ${focusRing}`;

function CollectionLine({
  summary,
  href,
  money,
}: {
  summary: Summary;
  href: string;
  money: (a: Summary['amount']) => string;
}) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Link href={href} className={link}>
        {summary.reference}
      </Link>
      <StatusBadge status={summary.status} />
      <span className="tabular-nums">{money(summary.amount)}</span>
      {summary.person ? (
        <span className="basis-full text-xs text-zinc-600 dark:text-zinc-400">{summary.person}</span>
      ) : null}
    </span>
  );
}

function Result({
  resolution,
  label,
  money,
  onRetry,
}: {
  resolution: Resolution | undefined;
  /** What was found, for the Retry button's name. */
  label: string;
  money: (a: Summary['amount']) => string;
  onRetry: () => void;
}) {
  if (!resolution) return <span className="text-zinc-600 dark:text-zinc-400">Looking up…</span>;
  switch (resolution.state) {
    case 'found':
      return resolution.provider ? (
        <span className="flex flex-wrap items-center gap-2">
          <Link href={resolution.href} className={link}>
            {resolution.provider.name}
          </Link>
          <span>{resolution.provider.enabled ? 'Enabled' : 'Disabled'}</span>
        </span>
      ) : (
        <CollectionLine summary={resolution.collection!} href={resolution.href} money={money} />
      );
    case 'matches':
      return (
        <span className="flex flex-col gap-1">
          <Link href={resolution.href} className={link}>
            {nf.format(resolution.count)} collections match
          </Link>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            First: <CollectionLine summary={resolution.first} href={resolution.first.href} money={money} />
          </span>
        </span>
      );
    case 'error':
      return (
        <span className="flex flex-wrap items-center gap-2 text-red-800 dark:text-red-300">
          {resultText(resolution, money)}
          {resolution.retryable ? (
            <Button onClick={onRetry} className="py-0.5 text-xs" aria-label={`Retry ${label}`}>
              Retry
            </Button>
          ) : null}
        </span>
      );
    case 'other_account':
      return resolution.owner ? (
        <span className="flex flex-wrap items-center gap-2">
          {resultText(resolution, money)}
          {/* A full load: the owner's account, its shell and links. */}
          <a href={resolution.owner.href} className={link}>
            Open in {resolution.owner.name}
          </a>
        </span>
      ) : (
        <span>{resultText(resolution, money)}</span>
      );
    default:
      return <span>{resultText(resolution, money)}</span>;
  }
}
