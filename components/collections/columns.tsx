'use client';

import { withAccount } from '@/lib/accounts/href';
import { createColumnHelper, tableFeatures } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { enumText, statusBadge } from '@/components/ui/badge';
import { idText } from '@/components/ui/id-text';
import { tagChip } from '@/components/tags/tag-chip';
import type { CollectionRow } from '@/lib/query/rows';
import { isContactId } from '@/lib/api/ids';
import { contactPath } from '@/lib/api/list-state';
import type { MatchedField } from '@/lib/api/summary';
import { formatAmount } from '@/lib/format/money';
import { formatDateTime, formatUtc, yearIn } from '@/lib/format/dates';
import { COLUMN_LABEL, DEFAULT_COLUMNS, type ListColumnId } from '@/lib/api/columns';

/**
 * No row features: the server pages, sorts and filters (the page lives in the URL, the rows come a page at a
 * time), so the table model is the core's columns and rows; its pagination feature only mirrored the URL.
 */
export const features = tableFeatures({});
const column = createColumnHelper<typeof features, CollectionRow>();

/** A column's id: the one list's (contract section 13), or a search's "Matched on". */
export type ColumnId = ListColumnId | 'matched' | 'account';

/**
 * Classes for a column's cells, so a cell's content needs no wrapper element of
 * its own: every element of a row is a hundred on a page, each costing server
 * render, style, layout and hydration time (cells are plain calls, not
 * components, for the same reason). Every cell is one line (`cells`); on a
 * phone the row becomes a card (`list-cards` in globals.css), each cell placed by
 * its column's `c-` class, whatever the columns shown and their order.
 */
export const CELL_CLASS: Record<ColumnId, string> = {
  reference: 'c-ref',
  contact: 'c-contact',
  email: 'c-more',
  phone: 'c-more',
  amount: 'c-amount',
  status: 'c-status',
  matched: 'c-matched',
  // A search of every account: the account's name, labelled under the rest on a phone's card.
  account: 'c-added',
  methods: 'c-more text-xs',
  followUp: 'c-more text-xs',
  created: 'c-created',
  updated: 'c-more',
  completed: 'c-more',
  lineItems: 'c-more',
  type: 'c-more text-xs',
  tags: 'c-more',
  id: 'c-more',
};

/**
 * What each column's cells carry: its class, and for a column a reader added with Columns that has no place of
 * its own on a phone's card (Phone, Line items, Updated…: not one of the defaults) `c-added` and its label, so
 * the card shows it, labelled, under the rest (globals.css). The defaults without a place (methods, follow-up,
 * id) stay a tap away on the record, as before anyone chose columns. Made once: a hundred rows share them.
 */
export const CELL_PROPS = Object.fromEntries(
  (Object.entries(CELL_CLASS) as [ColumnId, string][]).map(([id, className]) =>
    id !== 'matched' && id !== 'account' && className.startsWith('c-more') && !DEFAULT_COLUMNS.includes(id)
      ? [id, { className: className.replace('c-more', 'c-added'), 'data-label': COLUMN_LABEL[id as ListColumnId] }]
      : id === 'account'
        ? [id, { className, 'data-label': 'Account' }]
        : [id, { className }],
  ),
) as Record<ColumnId, { className: string; 'data-label'?: string }>;

const MATCHED: Record<MatchedField, string> = {
  id: 'ID',
  email: 'E-mail',
  phone: 'Phone',
  phoneLast4: 'Phone, last 4',
  phoneNational: 'Phone, national',
  emailLocal: 'E-mail name',
  namePrefix: 'Name, start',
  referencePart: 'Reference, part',
  nameSounds: 'Name, sounds like',
  reference: 'Reference',
  name: 'Name',
};

/** Values as quiet text, comma-separated: one line where badges wrapped onto two. */
function list(values: string[]) {
  return values.flatMap((v, i) => (i ? [', ', enumText(v, v)] : [enumText(v, v)]));
}

/**
 * A cell's values (`.values` in globals.css): each whole, the list breaking between them only when the
 * row would not fit its screen otherwise (a search's 9 columns at 1280 px), one element per cell.
 */
const values = (content: ReactNode) => <span className="values">{content}</span>;

/**
 * A search's e-mail and phone, on a line under the name (`.contact-wide`): the e-mail is cut before the
 * phone, the part that tells namesakes apart.
 */
const reachOf = ({ email, phone }: CollectionRow['contact']) => (
  <span>
    {email ? <span>{email}</span> : null}
    {email && phone ? '\u00a0·\u00a0' : null}
    {phone ? <span>{phone}</span> : null}
  </span>
);

/** Not known for this row yet (an index row the sync has not rewritten since the index began keeping it). */
const notYet = (
  <span className="muted" title="Not indexed yet: shown after the next sync">
    …<span className="sr-only">not indexed yet</span>
  </span>
);

/** A row with notes, its own or its contact's (section 16): an icon named for screen readers. */
const hasNotes = (
  <span role="img" aria-label="Has notes" title="Has notes" className="ml-1 text-zinc-600 dark:text-zinc-400">
    <svg viewBox="0 0 16 16" aria-hidden="true" className="inline size-3.5 fill-current">
      <path
        d="M3 1.5h7l3 3v10H3zM10 1.5v3h3M5 7h6M5 9.5h6M5 12h4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.2"
      />
    </svg>
  </span>
);

/** The id whose copy button was pressed last, and whether the clipboard took it (for 1.5 s). */
export type Copied = { id: string; ok: boolean } | null;

/**
 * The list's columns; `minorUnits` follows AMOUNT_MINOR_UNITS from the server, `matched` adds what a
 * search matched on (search results), `zone` is the Display menu's time zone, `copied` the row whose
 * id was copied (the table's one click handler copies: see `data-copy`).
 */
export function collectionColumns({
  minorUnits,
  matched = false,
  people = matched,
  zone,
  copied,
  shown = DEFAULT_COLUMNS,
  account = null,
  accountNames,
  selectable = false,
}: {
  /** Row checkboxes in the Reference cells and "Select all on this page" in its header (Tag selected). */
  selectable?: boolean;
  /** A search of every account: the accounts' names, for an Account column after the reference. */
  accountNames?: Record<string, string>;
  /** The page's account (null with one account): every link names it, or the row's own (a search of all). */
  account?: string | null;
  /** The columns shown, in their order (lib/api/columns.ts); "Matched on" follows Status in a search. */
  shown?: readonly ListColumnId[];
  minorUnits: boolean;
  matched?: boolean;
  /**
   * A search's rows: the contact's e-mail and phone (as the reader may see them) beside the name, so people
   * who share a name are told apart at a glance.
   */
  people?: boolean;
  zone: string;
  copied: Copied;
}) {
  const year = yearIn(zone);
  const linked = (href: string, row: CollectionRow) => withAccount(href, row.account ?? account);
  const time = (iso: string | null) =>
    iso ? (
      <time dateTime={iso} title={formatUtc(iso)}>
        {formatDateTime(iso, zone, false, year)}
      </time>
    ) : (
      <span className="muted">—</span>
    );
  const defs = {
    reference: column.accessor('reference', {
      header: () =>
        selectable ? (
          <>
            <input
              type="checkbox"
              data-select-all=""
              aria-label="Select all on this page"
              className="mr-2 align-middle"
            />
            Reference
          </>
        ) : (
          'Reference'
        ),
      cell: ({ row }) => (
        <>
          {selectable ? (
            <input
              type="checkbox"
              data-select={row.original.id}
              aria-label={`Select ${row.original.reference || row.original.id}`}
              className="mr-2 align-middle"
            />
          ) : null}
          {/* A plain anchor: the table's click handler turns a plain click into a client-side
        navigation, so 100 rows do not each mount a <Link> (its hooks cost render and hydration time). */}
          <a href={linked(`/collections/${row.original.id}`, row.original)} className="link-strong ref">
            {row.original.reference || <span className="italic">(no reference)</span>}
          </a>
          {row.original.notes ? hasNotes : null}
        </>
      ),
    }),
    contact: column.accessor('contact', {
      header: 'Contact',
      cell: ({ row }) => {
        const c = row.original.contact;
        const reach = people ? [c.email, c.phone].filter(Boolean).join(' · ') : c.email || c.phone;
        const name = `${c.firstName} ${c.lastName}`.trim();
        return (
          <span className={people ? 'contact contact-wide' : 'contact'} title={people ? reach : undefined}>
            {/* A search's people link their page: every collection of that contact (contract section 14). */}
            {people && name && isContactId(c.id) ? (
              <a
                href={linked(contactPath(c.id), row.original)}
                className="text-sky-800 hover:underline dark:text-sky-300"
                title="All collections for this contact"
              >
                {name}
              </a>
            ) : (
              <span>{name || '—'}</span>
            )}{' '}
            {people ? reachOf(c) : <span>{reach}</span>}
          </span>
        );
      },
    }),
    amount: column.accessor('amount', {
      header: () => <span className="block text-right">Amount</span>,
      cell: ({ row }) => {
        const text = formatAmount(row.original.amount, { minorUnits });
        if (!minorUnits) return text; // whole numbers as given: right-aligned, they line up already
        // With minor units, JPY has no decimals and KWD three: the fraction gets a slot of its own so the
        // decimal points of every row line up.
        const dot = text.lastIndexOf('.');
        return dot < 0 ? (
          <>
            {text}
            <span className="frac" />
          </>
        ) : (
          <>
            {text.slice(0, dot)}
            <span className="frac">{text.slice(dot)}</span>
          </>
        );
      },
    }),
    status: column.accessor('status', { header: 'Status', cell: ({ row }) => statusBadge(row.original.status) }),
    methods: column.accessor('payable', {
      id: 'methods',
      header: COLUMN_LABEL.methods,
      cell: ({ row }) => {
        const p = row.original.payable;
        if (!p) return notYet;
        return p.methods.length ? values(list(p.methods)) : <span className="muted">—</span>;
      },
    }),
    followUp: column.accessor('followUp', {
      header: 'Follow-up',
      cell: ({ row }) => {
        const f = row.original.followUp;
        if (!f) return notYet;
        if (!f.enabled) return <span className="muted">Off</span>;
        // The no-break space keeps "·" after "On" when the channels go to a line of their own.
        return values([<span key="">On</span>, f.channels.length ? '\u00a0· ' : null, ...list(f.channels)]);
      },
    }),
    // DateTime's markup (the zone comes from the table, not a hook per row).
    created: column.accessor('createdAt', {
      id: 'created',
      header: 'Created',
      cell: ({ row }) => time(row.original.createdAt),
    }),
    updated: column.accessor('updatedAt', {
      id: 'updated',
      header: 'Updated',
      cell: ({ row }) => time(row.original.updatedAt),
    }),
    completed: column.accessor('completedAt', {
      id: 'completed',
      header: 'Completed',
      cell: ({ row }) => time(row.original.completedAt),
    }),
    lineItems: column.accessor('lineItems', {
      header: () => <span className="block text-right">Line items</span>,
      cell: ({ row }) => <span className="block text-right tabular-nums">{row.original.lineItems}</span>,
    }),
    tags: column.accessor((row) => (row.tags ?? []).map((t) => t.name).join(';'), {
      id: 'tags',
      header: COLUMN_LABEL.tags,
      cell: ({ row }) =>
        row.original.tags?.length ? values(row.original.tags.map(tagChip)) : <span className="muted">—</span>,
    }),
    type: column.accessor('type', {
      header: 'Type',
      cell: ({ row }) => enumText(row.original.type, row.original.type),
    }),
    email: column.accessor('contact', {
      id: 'email',
      header: COLUMN_LABEL.email,
      cell: ({ row }) => row.original.contact.email || <span className="muted">—</span>,
    }),
    phone: column.accessor('contact', {
      id: 'phone',
      header: COLUMN_LABEL.phone,
      cell: ({ row }) => row.original.contact.phone || <span className="muted">—</span>,
    }),
    id: column.accessor('id', {
      header: 'ID',
      cell: ({ row }) => {
        const id = row.original.id;
        const done = copied?.id === id ? copied : null;
        // CopyButton's behaviour without a component per row: the table's click handler copies
        // `data-copy`, the live region inside the button says how it went.
        return (
          <>
            {idText(id)}
            <button
              type="button"
              data-copy={id}
              data-copied={done?.ok ? '' : undefined}
              aria-label={`Copy id ${id}`}
              title="Copy id"
              className="icon-btn copy-icon"
            >
              <span role="status" className="sr-only">
                {done ? (done.ok ? 'Copied' : 'Copy failed') : ''}
              </span>
            </button>
          </>
        );
      },
    }),
  };
  const matchedOn = column.accessor('matched', {
    header: 'Matched on',
    // Its words wrap when the row would not fit (".values"): "Name, sounds like" on two lines at 1280 px.
    cell: ({ row }) => values((row.original.matched ?? []).map((m) => MATCHED[m]).join(', ')),
  });
  // What a search matched on follows Status (or ends the row when Status is hidden).
  const at = shown.includes('status') ? shown.indexOf('status') + 1 : shown.length;
  const accountOf = column.accessor((row) => row.account ?? '', {
    id: 'account',
    header: 'Account',
    cell: ({ getValue }) => accountNames?.[getValue()] ?? getValue(),
  });
  const withMatched: ColumnId[] = matched ? [...shown.slice(0, at), 'matched', ...shown.slice(at)] : [...shown];
  const ids: ColumnId[] = accountNames ? [withMatched[0]!, 'account', ...withMatched.slice(1)] : withMatched;
  return column.columns(ids.map((id) => (id === 'matched' ? matchedOn : id === 'account' ? accountOf : defs[id])));
}
