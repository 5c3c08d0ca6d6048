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
  /** While the index is being built: how many collections it holds of how many (the file holds those). */
  building?: { indexed: number; of: number | null } | null;
};

/** What a page knows of the index, as the export's `building` (null once a full scan completed). */
export const buildingOf = (status: { state: string; indexed: number; upstreamCount: number | null }) =>
  status.state === 'building' ? { indexed: status.indexed, of: status.upstreamCount } : null;

export const EXPORT_BUTTON =
  'rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50 dark:ring-zinc-700 dark:hover:bg-zinc-800';
