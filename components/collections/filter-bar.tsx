'use client';

import { useRouter } from '@/components/account/account-scope';
import { useState, useTransition, type FormEvent } from 'react';
import { Button, focusRing } from '@/components/ui/button';
import { Popover } from '@/components/ui/popover';
import {
  defaults,
  filterSchema,
  parseListState,
  DEFAULT_SORT,
  SORTS,
  viewHref,
  type ListPath,
  type ListState,
  type Sort,
} from '@/lib/api/list-state';
import { label } from '@/lib/format/labels';
import { NO_VIEW } from '@/lib/api/view-url';
import { readAmountInput } from '@/lib/format/amount-input';
import { navigationStarted } from '@/lib/navigation/progress';

/**
 * Filters and sort of the collections list (contract section 7), all in the
 * URL: a change navigates to the filtered view, which the server renders from
 * the index. Typed values are checked with the API's own strict rules before
 * they leave the form; a bad one gets a message beside it and stays as typed.
 */
export type Facet = { value: string; count: number };

const SORT_LABELS: Record<Sort, string> = {
  '-createdAt': 'Newest first',
  createdAt: 'Oldest first',
  '-amount': 'Amount, high to low',
  amount: 'Amount, low to high',
  '-updatedAt': 'Recently updated',
  updatedAt: 'Least recently updated',
};

const nf = new Intl.NumberFormat('en');
const field = `rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`;

function Choices({
  name,
  facet,
  chosen,
  onChange,
}: {
  name: 'Status' | 'Currency';
  facet: Facet[];
  chosen: string[];
  onChange: (values: string[]) => void;
}) {
  // Ticks show at once; the URL (and so `chosen`) follows when the filtered view arrives.
  const [picked, setPicked] = useState(chosen);
  const [seen, setSeen] = useState(chosen.join());
  if (seen !== chosen.join()) {
    // The URL moved (back, forward, Clear filters): follow it.
    setSeen(chosen.join());
    setPicked(chosen);
  }
  const change = (values: string[]) => {
    setPicked(values);
    onChange(values);
  };
  // Values in the URL the index has no rows for still show, so they can be unticked.
  const options = [
    ...facet,
    ...chosen.filter((v) => !facet.some((f) => f.value === v)).map((value) => ({ value, count: 0 })),
  ];
  const text = (value: string) => (name === 'Status' ? label(value).text : value);
  return (
    <Popover
      buttonClassName="rounded-md border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-700"
      panelClassName="min-w-52"
      label={
        <>
          {name}
          {chosen.length ? (
            <span className="font-medium">
              : {chosen.length === 1 ? text(chosen[0]!) : `${chosen.length} selected`}
            </span>
          ) : null}
          <span aria-hidden="true">▾</span>
        </>
      }
    >
      <fieldset className="space-y-1">
        <legend className="sr-only">{name}</legend>
        {options.length ? null : <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing indexed yet</p>}
        {options.map((o) => (
          <label key={o.value} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={picked.includes(o.value)}
              onChange={(e) => change(e.target.checked ? [...picked, o.value] : picked.filter((v) => v !== o.value))}
            />
            <span>{text(o.value)}</span>
            <span className="ml-auto tabular-nums text-zinc-600 dark:text-zinc-400">{nf.format(o.count)}</span>
          </label>
        ))}
      </fieldset>
    </Popover>
  );
}

/** The filters typed as text (dates and amounts), applied together once they parse. */
const TYPED = ['createdFrom', 'createdTo', 'completedFrom', 'completedTo', 'amountMin', 'amountMax'] as const;
type Typed = (typeof TYPED)[number];

export function FilterBar({
  state,
  facets,
  view = null,
  noViewOnClear = false,
  minorUnits = false,
  path = '/collections',
}: {
  state: ListState;
  /** The list the filters apply to: the collections list, or a contact's page (its contact stays). */
  path?: ListPath;
  /** Amounts shown in major units (AMOUNT_MINOR_UNITS): a typed fraction is read into minor units. */
  minorUnits?: boolean;
  facets: { status: Facet[]; currency: Facet[] } | null;
  /** The saved view open (its id): a change of filters stays in it (its "Update view" saves them). */
  view?: string | null;
  /** Clear filters leaves any view, the reader's default too (`?view=none`). */
  noViewOnClear?: boolean;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [typed, setTyped] = useState(
    () => Object.fromEntries(TYPED.map((k) => [k, state[k]?.toString() ?? ''])) as Record<Typed, string>,
  );
  const [problem, setProblem] = useState<{ param: string; message: string } | null>(null);
  const [unfolded, setUnfolded] = useState(false);

  function apply(changes: Partial<ListState>, clear = false) {
    setProblem(null);
    const keep = clear ? (noViewOnClear ? { view: NO_VIEW } : null) : view ? { view } : null;
    const href = viewHref(path, { ...state, ...changes, page: 1 }, keep ? new URLSearchParams(keep) : undefined);
    navigationStarted(href);
    startTransition(() => router.push(href));
  }

  /** The typed dates and amounts, checked by the API's strict rules before the URL changes. */
  function applyTyped(event?: FormEvent) {
    event?.preventDefault();
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(typed)) {
      if (!value.trim()) continue;
      if (name === 'amountMin' || name === 'amountMax') {
        // As people type amounts: separators, a symbol or code, a fraction in major units; the URL gets the integer.
        const label = name === 'amountMin' ? 'Minimum amount' : 'Maximum amount';
        const read = readAmountInput(value, { name: label, minorUnits, currencies: state.currency });
        if (!read.ok) return setProblem({ param: name, message: read.message });
        search.set(name, String(read.value));
      } else search.set(name, value.trim());
    }
    const parsed = parseListState(search);
    if (!parsed.ok) return setProblem({ param: parsed.param, message: parsed.message });
    if (TYPED.every((k) => parsed.value[k] === state[k])) return setProblem(null);
    apply(Object.fromEntries(TYPED.map((k) => [k, parsed.value[k]])));
  }

  const filtered =
    Object.keys(filterSchema).some(
      (k) => k !== 'sort' && k !== 'contact' && state[k as keyof ListState] !== undefined,
    ) || state.sort !== '-createdAt';
  const currencies = state.currency ?? [];
  const amountNote = !currencies.length
    ? 'Amounts are compared across all currencies: choose a currency to compare like with like.'
    : `Amounts in ${currencies.join(', ')}.`;

  const input = (name: Typed, text: string, type: 'date' | 'text') => (
    <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
      {text}
      <input
        type={type}
        inputMode={type === 'text' ? 'decimal' : undefined}
        value={typed[name]}
        aria-invalid={problem?.param === name || undefined}
        aria-describedby={
          problem?.param === name ? 'filter-problem' : name.startsWith('amount') ? 'amount-note' : undefined
        }
        onChange={(e) => setTyped((t) => ({ ...t, [name]: e.target.value }))}
        onBlur={() => applyTyped()}
        className={`${field} w-36`}
      />
    </label>
  );

  // Below 640 px the controls fold into a "Filters" disclosure saying how many apply: the rows come first.
  const applied = (Object.keys(filterSchema) as (keyof ListState)[]).filter(
    (k) =>
      k !== 'q' &&
      k !== 'contact' &&
      k !== 'changedSince' &&
      (k === 'sort' ? state.sort !== DEFAULT_SORT : state[k] !== undefined),
  ).length;
  return (
    <section aria-label="Filters" aria-busy={pending || undefined} className="mb-4 space-y-2">
      <Button
        className="sm:hidden"
        aria-expanded={unfolded}
        aria-controls="filter-controls"
        onClick={() => setUnfolded(!unfolded)}
      >
        Filters{applied ? ` (${applied} applied)` : ''}
      </Button>
      <form
        id="filter-controls"
        onSubmit={applyTyped}
        className={`flex-wrap items-end gap-3 ${unfolded ? 'flex' : 'hidden sm:flex'}`}
      >
        {facets ? (
          <>
            <Choices
              name="Status"
              facet={facets.status}
              chosen={state.status ?? []}
              onChange={(v) => apply({ status: v.length ? v : undefined })}
            />
            <Choices
              name="Currency"
              facet={facets.currency}
              chosen={currencies}
              onChange={(v) => apply({ currency: v.length ? v : undefined })}
            />
          </>
        ) : null}
        {input('createdFrom', 'Created from', 'date')}
        {input('createdTo', 'Created to', 'date')}
        {input('completedFrom', 'Completed from', 'date')}
        {input('completedTo', 'Completed to', 'date')}
        {input('amountMin', 'Minimum amount', 'text')}
        {input('amountMax', 'Maximum amount', 'text')}
        <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
          Sort by
          <select value={state.sort} onChange={(e) => apply({ sort: e.target.value as Sort })} className={field}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="sr-only">
          Apply filters
        </button>
        <Button
          onClick={() => apply({ ...defaults(filterSchema) }, true)}
          variant="ghost"
          disabled={!filtered && !view}
        >
          Clear filters
        </Button>
      </form>
      {state.tag?.length ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span>Tagged (any of):</span>
          {state.tag.map((tag) => (
            <span key={tag} className="tag tag-grey gap-1">
              {tag}
              <button
                type="button"
                aria-label={`Remove the tag filter ${tag}`}
                className="rounded-full px-1 hover:bg-zinc-200 dark:hover:bg-zinc-700"
                onClick={() => {
                  const rest = state.tag!.filter((t) => t !== tag);
                  apply({ tag: rest.length ? rest : undefined });
                }}
              >
                <span aria-hidden="true">×</span>
              </button>
            </span>
          ))}
        </p>
      ) : null}
      <p id="amount-note" className={`text-xs text-zinc-600 dark:text-zinc-400 ${unfolded ? '' : 'max-sm:hidden'}`}>
        {amountNote}
      </p>
      {problem ? (
        <p id="filter-problem" role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem.message}
        </p>
      ) : null}
    </section>
  );
}
