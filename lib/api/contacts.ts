/**
 * A contact's page as `/api/contacts/{id}` answers it (contract section 14): who, totals per currency, the
 * other contact ids under the same e-mail. Types only, shared by the server's reads and the components.
 */
export type ContactTotalsRow = {
  currency: string;
  pending: { count: number; amount: number };
  completed: { count: number; amount: number };
  /** Every status but pending and completed. */
  other: { count: number; amount: number };
};

export type ContactHead = {
  /** As a collection summary's contact (section 7a): e-mail and phone as the reader may see them, and masked. */
  contact: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    emailMasked: string;
    phoneMasked: string;
  };
  totals: ContactTotalsRow[];
  /** Other contact ids under the same e-mail (a person recreated upstream), with how many collections each holds. */
  sameEmail: { id: string; firstName: string; lastName: string; count: number }[];
  /**
   * Whether every row of the index carries its contact's link: false on an index written before contact
   * pages, until a full scan begun since completes (some collections may be missing meanwhile).
   */
  linked: boolean;
  /** The filter menus' counts for this contact's collections: each status and currency. */
  facets: { status: { value: string; count: number }[]; currency: { value: string; count: number }[] };
};
