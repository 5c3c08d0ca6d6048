/** What the Export CSV button and its deferred panel share. */
export type ExportCsvProps = {
  /** The view's query string (no page or limit). */
  query: string;
  /** Filters, a search or a sort: live reads cannot do those. */
  filtered: boolean;
  indexOn: boolean;
  /** Rows the view holds, when known. */
  count?: number;
  /** Admins may export contact details; for a viewer the choice is not offered (the server refuses it too). */
  contactsAllowed: boolean;
};

export const EXPORT_BUTTON =
  'rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:ring-zinc-700 dark:hover:bg-zinc-800';
