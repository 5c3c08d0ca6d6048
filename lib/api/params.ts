import { MAX_LIMIT, MAX_QUERY, SORTS } from './list-state';
import { RANGES } from './overview';

/**
 * How the URL-state parameters are documented in OpenAPI (lib/api/openapi.ts builds each route's query
 * parameters from the schema its input parses with, and takes the words from here). Apart from the fields
 * themselves so the descriptions stay out of the browser's bundle; openapi.test.ts holds every example,
 * type, format, enum and bound against the routes' real inputs, and a schema parameter without a line here
 * fails the document's build.
 */
export type ParamDoc = {
  type: 'string' | 'integer';
  description: string;
  /** A value the strict rule accepts. */
  example: string;
  format?: 'date';
  pattern?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

const day = (what: string): ParamDoc => ({
  type: 'string',
  format: 'date',
  pattern: '^(\\d{4})-(\\d{2})-(\\d{2})$',
  description: `${what}: a whole UTC day, YYYY-MM-DD, inclusive`,
  example: '2026-11-01',
});
const values = (name: string, example: string): ParamDoc => ({
  type: 'string',
  description: `One ${name} or a comma-separated list of up to 20, exact as the upstream spells them`,
  example,
});
const amount = (what: string): ParamDoc => ({
  type: 'integer',
  description: `${what} amount.value, inclusive`,
  example: '500000',
});

/** `tag` (section 16), on the list's views and the overview. */
const TAG_DOC: ParamDoc = {
  type: 'string',
  description:
    'Only collections holding any of these tags (section 16): give tag again for each, or comma-separate them',
  pattern: '^[\\p{L}\\p{N}_-]{1,40}(,[\\p{L}\\p{N}_-]{1,40}){0,19}$',
  example: 'refund-requested',
};

/** The overview's `currency`: one currency (the list's `currency` takes a list). */
export const OVERVIEW_PARAM_DOCS: Record<string, ParamDoc> = {
  currency: {
    type: 'string',
    description:
      "One currency, exact as the upstream spells it: perDay holds that currency's rows only (currencies still lists every currency)",
    minLength: 1,
    maxLength: 64,
    example: 'NGN',
  },
  tag: { ...TAG_DOC, description: `${TAG_DOC.description}; the figures are then counted from their rows` },
};

export const PARAM_DOCS: Record<string, ParamDoc> = {
  page: { type: 'integer', description: 'Page, from 1', minimum: 1, example: '2' },
  limit: { type: 'integer', description: 'Rows a page', minimum: 1, maximum: MAX_LIMIT, example: '25' },
  status: values('status', 'pending,completed'),
  currency: values('currency', 'NGN'),
  createdFrom: day('Created on or after'),
  createdTo: day('Created on or before'),
  completedFrom: day('Completed on or after'),
  completedTo: day('Completed on or before'),
  amountMin: amount('Smallest'),
  amountMax: amount('Largest'),
  sort: { type: 'string', description: 'Order; a minus sorts descending', enum: SORTS, example: '-amount' },
  contact: {
    type: 'string',
    description: "One contact's collections (its page is /contacts/{id})",
    pattern: '^contact_[A-Za-z0-9_-]{1,128}$',
    example: 'contact_3kq9v2',
  },
  change: {
    type: 'string',
    description: "Collections whose status the index saw change so, written from>to (the Overview's Changes)",
    pattern: '^[^>,\\s][^>,]{0,63}>[^>,\\s][^>,]{0,63}$',
    example: 'pending>completed',
  },
  changedSince: {
    type: 'string',
    description: 'With change (or alone: any change), only changes seen since this UTC time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{3})?)?Z$',
    example: '2026-11-24T10:00Z',
  },
  tag: TAG_DOC,
  q: {
    type: 'string',
    description: 'Search text: an e-mail, a phone number or its last four digits, a name or a reference',
    minLength: 1,
    maxLength: MAX_QUERY,
    example: 'amara',
  },
  range: { type: 'string', description: 'The days the overview covers, today included', enum: RANGES, example: '7d' },
};
