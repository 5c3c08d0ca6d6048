import type Database from 'better-sqlite3';
import { FAULT_KINDS, FAULT_PAGES, faultId } from './faults';
import { isFormulaInjection, type SeedCollection } from './seed-data';

/**
 * What `GET /__sandbox/fixtures` returns: each account's name and key, a sample
 * of its ids, and named examples of the record kinds tests need, so nobody
 * hard-codes an id, and the contact details and references of the listed
 * ones, so search tests look for real values. Computed once at start from the
 * newest 2,000 records.
 */
const EXAMPLES: Record<string, (c: SeedCollection) => boolean> = {
  unicodeName: (c) => /[^\x00-\x7f]/.test(c.contact.firstName + c.contact.lastName),
  noLineItems: (c) => c.metadata.length === 0,
  multipleLineItems: (c) => c.metadata.length >= 3 && c.metadata.some((i) => i.quantity > 1),
  itemsTotalDiffers: (c) =>
    c.metadata.length > 0 && c.metadata.reduce((s, i) => s + i.amount.value * i.quantity, 0) !== c.amount.value,
  followUpOff: (c) => !c.followUp.enabled,
  followUpOn: (c) => c.followUp.enabled && c.followUp.cadence === 'every_10m' && c.followUp.tone === 'gentle',
  completed: (c) => c.status === 'completed' && c.completedAt !== null,
  bothMethods: (c) => c.payable.methods.length === 2 && c.payable.options.length > 0,
  withEvents: (c) => c.events.length > 1,
  notIntegrated: (c) => c.type !== 'integrated',
};

export function loadFixtures(db: Database.Database, faults: boolean) {
  const accounts = db.prepare('SELECT id, name, api_key AS key, listed FROM accounts ORDER BY id').all() as {
    id: string;
    name: string;
    key: string;
    listed: number;
  }[];
  const recent = db
    .prepare(
      'SELECT body FROM collections WHERE account_id = ? AND (list_pos < 2000 OR list_pos IS NULL) ORDER BY created_at DESC LIMIT 3000',
    )
    .pluck();
  const providers = db.prepare('SELECT id FROM providers WHERE account_id = ? ORDER BY id').pluck();

  return {
    accounts: accounts.map((account) => {
      const records = (recent.all(account.id) as string[]).map((body) => JSON.parse(body) as SeedCollection);
      const integrated = records.filter((c) => c.type === 'integrated');
      // The formula-injection records are for the export's tests only: no other example is one of them.
      const plain = records.filter((c) => !isFormulaInjection(c.reference));
      const examples = Object.fromEntries(
        Object.entries(EXAMPLES).map(([name, test]) => [name, plain.find(test)?.id ?? null]),
      );
      // What a customer would quote to support, for the records tests search for (listed ones only).
      const named = new Set([...integrated.slice(0, 5).map((c) => c.id), ...Object.values(examples)]);
      const formulaInjection = records.filter((c) => isFormulaInjection(c.reference)).map((c) => c.id);
      const contacts = Object.fromEntries(
        integrated
          .filter((c) => named.has(c.id))
          .map((c) => [
            c.id,
            {
              reference: c.reference,
              email: c.contact.email,
              phone: c.contact.phone,
              firstName: c.contact.firstName,
              lastName: c.contact.lastName,
            },
          ]),
      );
      return {
        id: account.id,
        name: account.name,
        key: account.key,
        listedCollections: account.listed,
        collections: {
          integrated: integrated.slice(0, 5).map((c) => c.id),
          notIntegrated: records
            .filter((c) => c.type !== 'integrated')
            .slice(0, 5)
            .map((c) => c.id),
        },
        providers: providers.all(account.id) as string[],
        examples,
        contacts,
        formulaInjection,
      };
    }),
    faults: faults
      ? {
          enabled: true,
          collections: Object.fromEntries(FAULT_KINDS.map((k) => [k, faultId('pay', k)])),
          providers: Object.fromEntries(FAULT_KINDS.map((k) => [k, faultId('prv', k)])),
          listPages: FAULT_PAGES,
          flaky: 'pay_fault_flaky-<token> or prv_fault_flaky-<token>: 503 twice per token, then a record',
        }
      : { enabled: false },
  };
}

export type Fixtures = ReturnType<typeof loadFixtures>;
