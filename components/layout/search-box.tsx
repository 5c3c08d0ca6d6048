'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useRouter } from '@/components/account/account-scope';
import { withAccount } from '@/lib/accounts/href';
import { tagQuery, tagQueryHref } from '@/lib/api/tag-names';
import { useEffect, useId, useRef, useState, type ComponentType, type KeyboardEvent } from 'react';
import { parseOpenTarget } from '@/lib/api/open-target';
import { label } from '@/lib/format/labels';
import { navigationStarted } from '@/lib/navigation/progress';
import type { CollectionSummary } from '@/lib/api/summary';
import { focusRing } from '@/components/ui/button';
import { apiGet, isApiFailure } from '@/lib/query/api-client';

/**
 * The header's "Search" box (WAI-ARIA combobox with a listbox popup). An id or
 * a pasted dashboard link opens that record live; anything else searches the
 * index as the user types (debounced) and Enter opens the full results page.
 * `/` focuses it from anywhere but a text field. Empty, it lists the records
 * pinned and recently viewed in this browser. The one /api client (lib/query/api-client.ts), no query
 * library: this component is on every page's first load.
 */
type Hit = CollectionSummary;
type Option = { key: string; href: string; label: string; detail: string; reach?: string };
/** The index's answer for one query text (the latest asked; older answers are dropped). */
type Answer = { q: string; options: Option[]; total: number } | { q: string; failed: string };

const HINT = 'Type an id, an e-mail, a phone number, a name or a reference';
const DEBOUNCE_MS = 200;
const SHOWN = 6;

const fullName = (h: Hit) => `${h.contact.firstName} ${h.contact.lastName}`.trim();
const money = (a: Hit['amount']) => `${a.currency} ${new Intl.NumberFormat('en').format(a.value)}`;
// `tag:vip` opens the list of that tag (section 16), with the rest of the text as its search.
const searchHref = (q: string) => {
  const tagged = tagQuery(q);
  return tagged ? tagQueryHref(tagged) : `/search?${new URLSearchParams({ q })}`;
};

export function SearchBox() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  // On the results page the box holds the query (narrowing "Abdulahi" to "Grace Abdulahi" is one edit), as
  // the page loads and as Back and Forward move between searches; elsewhere it starts empty. Set while
  // rendering when the URL's query changes (React's pattern for state that follows a prop), not in an effect.
  const pathname = usePathname();
  const params = useSearchParams();
  const urlQuery = pathname === '/search' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(urlQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [Dialog, setDialog] = useState<ComponentType<{ onClose: () => void }> | null>(null);
  const ids = { list: useId(), hint: useId(), status: useId() };
  // Read when the box gets focus, from code loaded then: most page views never open the box.
  const [remembered, setRemembered] = useState<Option[]>([]);
  const [followed, setFollowed] = useState(urlQuery);
  if (urlQuery !== followed) {
    setFollowed(urlQuery);
    setText(urlQuery);
  }

  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The shell's other shortcuts (contract section 9), here because this box is on every page: only this
  // listener ships with it; what the keys do (keyboard-actions.ts) and the "Keyboard shortcuts" dialog load
  // on the first key that could be one. The keys have no default action outside a field, so acting a
  // moment later takes nothing from the browser.
  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key.length > 1 || !'gocl?jk'.includes(event.key) || event.ctrlKey || event.metaKey || event.altKey)
        return;
      void import('@/components/keyboard/keyboard-actions').then(({ handleKey }) =>
        handleKey(event, {
          go: (href) => {
            navigationStarted(href);
            router.push(href);
          },
          help: () => void import('@/components/keyboard/shortcuts-dialog').then((m) => setDialog(() => m.default)),
        }),
      );
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [router]);

  // An id or a link opens directly (decided here, as the user types); other text asks the index.
  const q = text.trim();
  const target = parseOpenTarget(q);
  const searchable = !target.ok && q.length >= 2 && !/^https?:\/\//i.test(q) && !q.startsWith('/');

  useEffect(() => {
    if (!searchable) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const body = await apiGet<{ data: Hit[]; meta: { count: number } }>(
          `/api/search?${new URLSearchParams({ q: q.slice(0, 200), limit: String(SHOWN) })}`,
          { signal: controller.signal },
        );
        const options = body.data.map((h) => ({
          key: h.id,
          href: `/collections/${h.id}`,
          label: h.reference || h.id,
          detail: [fullName(h), money(h.amount), label(h.status).text].filter(Boolean).join(' · '),
          // As the reader may see them (contract section 10): enough to tell two people of one name apart.
          reach: [h.contact.email, h.contact.phone].filter(Boolean).join(' · '),
        }));
        setAnswer({ q, options, total: body.meta.count });
      } catch (error) {
        if (controller.signal.aborted) return;
        setAnswer({
          q,
          failed:
            isApiFailure(error) && error.code !== 'upstream_unreachable'
              ? error.message
              : 'Search could not be reached',
        });
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, searchable]);

  const current = answer?.q === q ? answer : null;
  const shownRemembered = q ? [] : remembered;
  const options: Option[] = target.ok
    ? [{ key: target.id, href: target.href, label: `Open ${target.id}`, detail: 'the live record' }]
    : searchable && current && 'options' in current
      ? current.options
      : shownRemembered;
  const loading = searchable && !current;
  const failed = searchable && current && 'failed' in current ? current.failed : null;
  const total = target.ok ? 1 : current && 'total' in current ? current.total : 0;
  const expanded = open && (target.ok || searchable || shownRemembered.length > 0);

  function go(href: string) {
    setOpen(false);
    setText('');
    setActive(-1);
    input.current?.blur();
    navigationStarted(href);
    router.push(href);
  }

  /** The results page for the text: the text stays, and so does focus (the page announces its count). */
  function search(text: string) {
    setOpen(false);
    setActive(-1);
    // Searching every account (`/search?account=all`): the next search does too.
    const every = pathname === '/search' && params.get('account') === 'all';
    const href = every ? withAccount(searchHref(text), 'all') : searchHref(text);
    navigationStarted(href);
    router.push(href);
  }

  function submit() {
    if (active >= 0 && options[active]) return go(options[active].href);
    if (target.ok) return go(target.href);
    if (!q || /^https?:\/\//i.test(q) || q.startsWith('/')) {
      setOpen(false);
      return setMessage(q ? target.message : HINT);
    }
    search(q);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (!options.length) return;
      // -1 is the text itself: moving past either end comes back to it.
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => {
        const next = i + step;
        return next >= options.length ? -1 : next < -1 ? options.length - 1 : next;
      });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      if (expanded) setOpen(false);
      else setText('');
      setActive(-1);
    }
  }

  const status = !expanded
    ? ''
    : shownRemembered.length
      ? `${shownRemembered.length} pinned or recently viewed`
      : loading
        ? 'Searching…'
        : failed
          ? failed
          : options.length
            ? `${total} ${total === 1 ? 'result' : 'results'}${total > options.length ? `, ${options.length} shown` : ''}`
            : 'No matches';

  return (
    <div className="relative w-full sm:w-80">
      <form role="search" onSubmit={(e) => (e.preventDefault(), submit())} className="flex items-center">
        <label htmlFor="search-box" className="sr-only">
          Search
        </label>
        <input
          ref={input}
          id="search-box"
          name="q"
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={ids.list}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${ids.list}-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="Search: id, e-mail, phone, name, reference"
          value={text}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? ids.hint : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
            if (message) setMessage(null);
          }}
          onFocus={() => {
            setOpen(true);
            void import('@/lib/recent/records').then((m) => setRemembered(m.rememberedOptions()));
          }}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          className={`w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 pr-8 text-sm placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`}
        />
        <kbd
          aria-hidden="true"
          className="pointer-events-none absolute right-2 top-1.5 hidden rounded border border-zinc-300 px-1 text-xs text-zinc-500 sm:block dark:border-zinc-700"
        >
          /
        </kbd>
      </form>
      <ul
        id={ids.list}
        role="listbox"
        aria-label={shownRemembered.length ? 'Pinned and recently viewed' : 'Search suggestions'}
        hidden={!expanded || !options.length}
        className="absolute z-20 mt-1 w-full overflow-hidden rounded-md border border-zinc-200 bg-white text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        {options.map((o, i) => (
          <li
            key={o.key}
            id={`${ids.list}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(o.href)}
            className={`cursor-pointer px-3 py-2 ${i === active ? 'bg-sky-100 dark:bg-sky-900' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'}`}
          >
            <span className="block truncate font-medium">{o.label}</span>
            <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">{o.detail}</span>
            {o.reach ? (
              <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">{o.reach}</span>
            ) : null}
          </li>
        ))}
      </ul>
      <p id={ids.status} role="status" className="sr-only">
        {status}
      </p>
      {expanded && (loading || failed) ? (
        <p className="absolute z-20 mt-1 w-full rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
          {status}
        </p>
      ) : expanded && !options.length ? (
        <p className="absolute z-20 mt-1 w-full rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-700 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
          No matches. Press Enter to see the results page.
        </p>
      ) : null}
      {/* Under the box, over the page: the header keeps its one line. */}
      <p
        id={ids.hint}
        aria-live="polite"
        className={`absolute z-20 mt-1 w-full text-xs text-red-700 dark:text-red-300 ${message ? 'rounded-md border border-red-200 bg-white px-3 py-2 shadow-lg dark:border-red-900 dark:bg-zinc-900' : ''}`}
      >
        {message}
      </p>
      {Dialog ? <Dialog onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
