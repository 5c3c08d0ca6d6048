import 'server-only';
import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import metadata from 'libphonenumber-js/min/metadata';

/**
 * Phone numbers as people write them (libphonenumber-js, Google's libphonenumber metadata). A stored
 * number is international ("+234 803 123 4567"); the index keeps, beside its digits and last four, its
 * national significant number ("8031234567": the number without country code or trunk prefix), and the
 * account's countries (those of its numbers). A typed number is read as a phone when it is one: with
 * `+` or `00` and a country code, with "(0)", or national with a trunk prefix ("0803 123 4567"), which is
 * read in each of the account's countries and, whatever the country, without its leading zeros.
 */

/** The country a calling code is first used for ("1" → US, "44" → GB), when a number names no other. */
const mainCountry = (callingCode: string) =>
  (metadata as { country_calling_codes: Record<string, string[]> }).country_calling_codes[callingCode]?.[0];

export type StoredPhone = { national: string; country: string | null };

/** A stored number's national significant number and country, when its country code can be read. */
export function storedPhone(value: string): StoredPhone | null {
  if (!value) return null;
  const parsed = parsePhoneNumberFromString(value.normalize('NFKC'));
  if (!parsed || parsed.nationalNumber.length < 4) return null;
  return { national: parsed.nationalNumber, country: parsed.country ?? mainCountry(parsed.countryCallingCode) ?? null };
}

/** Characters a written phone number may hold: digits, `+`, brackets, dots, dashes, slashes and spaces. */
const PHONE_TEXT = /^[+(]*[+\d][\d\s().\-/]*$/;

export type PhoneQuery = {
  /** The whole number's digits as the index stores them (country code first), when it can be told. */
  international: string | null;
  /**
   * A national form read as whole numbers (country code first) in each of the account's countries, to
   * look up like any number (`phoneNational`): its national significant number, its digits without the
   * trunk prefix, and as typed.
   */
  nationals: string[];
  /** How the text was read, for a page that found nothing ("a phone number in Nigeria (+234)"). */
  readings: { country: string | null; callingCode: string | null; formatted: string }[];
  /** Its last four digits (the search offered when nothing matched). */
  last4: string;
};

/**
 * Reads a query as a phone number, or null when it is not one (letters, fewer than six digits). `countries`
 * are the account's (ISO 3166 codes of its indexed numbers): a number without a country code is read in
 * each of them. Never beyond that: a national number is not guessed into a country the account has no
 * number in, and a number that reads as nothing keeps only its digits.
 */
export function readPhoneQuery(text: string, countries: readonly string[]): PhoneQuery | null {
  const typed = text.normalize('NFKC').trim();
  if (!PHONE_TEXT.test(typed)) return null;
  // "+234 (0) 803…": the trunk prefix in brackets is written for callers at home, never dialled from abroad.
  const cleaned = typed.replace(/\(\s*0\s*\)/g, ' ');
  const digits = cleaned.replace(/\D/g, '');
  if (digits.length < 6 || digits.length > 17) return null;
  const last4 = digits.slice(-4);
  // "+…", "(+…)", or "00…" (the international prefix of most countries): a country code comes first.
  const international = /^\(?\s*\+/.test(cleaned) || /^\(?\s*00/.test(cleaned);
  if (international) {
    const whole = /^\(?\s*\+/.test(cleaned) ? digits : digits.slice(2);
    const parsed = parsePhoneNumberFromString(`+${whole}`);
    return {
      international: whole,
      // The country is given: the whole number is the fact to match, not its national part.
      nationals: [],
      readings: parsed
        ? [
            {
              country: parsed.country ?? mainCountry(parsed.countryCallingCode) ?? null,
              callingCode: parsed.countryCallingCode,
              formatted: parsed.formatInternational(),
            },
          ]
        : [{ country: null, callingCode: null, formatted: `+${whole}` }],
      last4,
    };
  }
  const nationals: string[] = [];
  const readings: PhoneQuery['readings'] = [];
  // Whatever the country: the digits without the trunk prefix (0 in most countries), and as typed.
  const withoutTrunk = digits.replace(/^0+/, '');
  for (const country of countries) {
    let callingCode: string;
    try {
      callingCode = getCountryCallingCode(country as CountryCode);
    } catch {
      continue; // not a country the metadata knows
    }
    const parsed = parsePhoneNumberFromString(cleaned, country as CountryCode);
    const significant = [parsed?.nationalNumber, withoutTrunk.length >= 6 ? withoutTrunk : null, digits];
    for (const n of significant) if (n) nationals.push(`${callingCode}${n}`);
    if (parsed?.isPossible())
      readings.push({ country, callingCode: parsed.countryCallingCode, formatted: parsed.formatNational() });
  }
  return {
    // Typed without "+", the digits may still be a whole international number ("2348031234567").
    international: digits,
    nationals: [...new Set(nationals)],
    readings,
    last4,
  };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "a phone number in Nigeria (+234): 0803 123 4567", for an empty result. */
export function describePhoneReading(reading: PhoneQuery['readings'][number]): string {
  if (!reading.country) return `a phone number ${reading.formatted}`;
  return `a phone number in ${regionNames.of(reading.country) ?? reading.country} (+${reading.callingCode}): ${reading.formatted}`;
}
