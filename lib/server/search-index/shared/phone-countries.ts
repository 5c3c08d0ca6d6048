import 'server-only';
import type { Transaction } from 'kysely';
import type { AppDb } from '../../database/connect';
import type { AppDatabase } from '../../database/schema';

/**
 * The account's countries: those of its indexed phone numbers (ISO 3166 codes, `index_meta`), in which a
 * number typed without its country code is read ("0803 123 4567" in an account with Nigerian numbers).
 * A list of countries says where an account's customers are, not who they are; it only grows (a country
 * whose last number went stays, and costs a lookup that finds nothing).
 */
export const PHONE_COUNTRIES = 'phone_countries';
const keyOf = (account: number) => `${PHONE_COUNTRIES}:${account}`;

export async function readPhoneCountries(db: AppDb | Transaction<AppDatabase>, account: number): Promise<string[]> {
  const row = await db.selectFrom('index_meta').select('value').where('key', '=', keyOf(account)).executeTakeFirst();
  return row ? (JSON.parse(row.value) as string[]) : [];
}

/** Adds these countries to the account's (inside the write that indexed their numbers). */
export async function notePhoneCountries(trx: Transaction<AppDatabase>, account: number, countries: Set<string>) {
  if (!countries.size) return;
  const known = await readPhoneCountries(trx, account);
  const added = [...countries].filter((c) => !known.includes(c));
  if (!added.length) return;
  const value = JSON.stringify([...known, ...added].sort());
  await trx
    .insertInto('index_meta')
    .values({ key: keyOf(account), value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
