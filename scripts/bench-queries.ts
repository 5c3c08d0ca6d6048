/** A contact of the data set a bench searches for (the sandbox's fixtures, or a record of its own). */
export type SearchedContact = { reference: string; email: string; phone: string; firstName: string; lastName: string };

/** A name with its last vowel changed ("Abdullahi" → "Abdullaha"): what a customer mistypes, and sounds the same. */
export function slipped(name: string) {
  const at = Math.max(...[...'aeiou'].map((v) => name.toLowerCase().lastIndexOf(v)));
  if (at <= 0) return name;
  return name.slice(0, at) + (name[at]!.toLowerCase() === 'a' ? 'e' : 'a') + name.slice(at + 1);
}

/** Each kind of search, as a customer would quote a contact: the exact kinds, then the forgiving ones. */
export function searchQueries(c: SearchedContact): [string, string][] {
  const digits = c.phone.replace(/\D/g, '');
  return [
    ['e-mail', c.email],
    ['phone', c.phone],
    ['last four', digits.slice(-4)],
    ['reference prefix', c.reference.slice(0, -2)],
    ['name tokens', `${c.lastName} ${c.firstName}`],
    // A first name alone: a common one matches ~4% of the account (its rows are walked in order).
    ['one name word', c.firstName],
    ['no match', 'nobody@nowhere.example'],
    // Search as customers speak: the number as written at home, a name's start, a slipped letter, the
    // e-mail before its @.
    ['national phone', `0${c.phone.replace(/^\+\d+ /, '')}`],
    ['name prefix, 3 letters', c.lastName.slice(0, 3)],
    ['name sounds like', `${c.firstName} ${slipped(c.lastName)}`],
    ['e-mail local part', c.email.slice(0, c.email.indexOf('@'))],
    ['reference fragment, 3 characters', c.reference.slice(-3)],
    ['reference fragment, 5 characters', c.reference.slice(-5)],
  ];
}
