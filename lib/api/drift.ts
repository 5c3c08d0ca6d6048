import {
  amountSchema,
  collectionSchema,
  contactSchema,
  followUpSchema,
  lineItemSchema,
  payableSchema,
  providerSchema,
} from './schemas';
import { statusMeaning } from './statuses';

/**
 * Schema drift (contract section 11): what an upstream record carries that the
 * seed does not describe: a field the seed does not list, or a value of an
 * open set (type, status, payable methods, follow-up cadence, channels, tone,
 * currency) the seed does not name. The known fields are the schemas' own;
 * pure, so it is tested on records as they come.
 */
export type DriftObservation = { kind: 'field' | 'value'; path: string; value?: string };

/**
 * The values the seed names (contract section 1). Beyond them, what the contract gives a meaning is known
 * too: the statuses payment APIs commonly send (paid, waiting, ended, failed), and every ISO 4217 currency
 * code. Reported as drift are the values nobody named: an operator's noise otherwise (every currency, every
 * `completed`) hid the one new value that matters.
 */
const NAMED: Record<string, readonly string[]> = {
  'collection.status': ['pending'],
  'collection.type': ['integrated'],
  'collection.payable.methods': ['payment_link', 'virtual_account'],
  'collection.followUp.cadence': ['every_10m'],
  'collection.followUp.channels': ['whatsapp', 'sms'],
  'collection.followUp.tone': ['gentle'],
  'collection.amount.currency': [],
};

const keys = (schema: { shape: Record<string, unknown> }) => new Set(Object.keys(schema.shape));
const KNOWN = {
  collection: keys(collectionSchema),
  amount: keys(amountSchema),
  contact: keys(contactSchema),
  payable: keys(payableSchema),
  followUp: keys(followUpSchema),
  lineItem: keys(lineItemSchema),
  provider: keys(providerSchema),
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function fields(out: DriftObservation[], record: unknown, known: Set<string>, path: string) {
  if (!isObject(record)) return;
  for (const key of Object.keys(record)) if (!known.has(key)) out.push({ kind: 'field', path: `${path}.${key}` });
}

const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));
const known = (path: string, item: string) =>
  NAMED[path]!.includes(item) ||
  (path === 'collection.status' && statusMeaning(item) !== null) ||
  (path === 'collection.amount.currency' && ISO_4217.has(item));

function value(out: DriftObservation[], path: string, v: unknown) {
  for (const item of Array.isArray(v) ? v : [v])
    if (typeof item === 'string' && !known(path, item)) out.push({ kind: 'value', path, value: item.slice(0, 100) });
}

export function driftOf(kind: 'collection' | 'provider', record: unknown): DriftObservation[] {
  const out: DriftObservation[] = [];
  if (!isObject(record)) return out;
  if (kind === 'provider') {
    fields(out, record, KNOWN.provider, 'provider');
    return out;
  }
  fields(out, record, KNOWN.collection, 'collection');
  fields(out, record.amount, KNOWN.amount, 'collection.amount');
  fields(out, record.contact, KNOWN.contact, 'collection.contact');
  fields(out, record.payable, KNOWN.payable, 'collection.payable');
  fields(out, record.followUp, KNOWN.followUp, 'collection.followUp');
  if (Array.isArray(record.metadata))
    for (const item of record.metadata) {
      fields(out, item, KNOWN.lineItem, 'collection.metadata[]');
      if (isObject(item)) fields(out, item.amount, KNOWN.amount, 'collection.metadata[].amount');
    }
  value(out, 'collection.status', record.status);
  value(out, 'collection.type', record.type);
  if (isObject(record.amount)) value(out, 'collection.amount.currency', record.amount.currency);
  if (isObject(record.payable)) value(out, 'collection.payable.methods', record.payable.methods);
  if (isObject(record.followUp)) {
    value(out, 'collection.followUp.cadence', record.followUp.cadence);
    value(out, 'collection.followUp.channels', record.followUp.channels);
    value(out, 'collection.followUp.tone', record.followUp.tone);
  }
  return out;
}
