import 'server-only';

/**
 * A text as the database can keep it: U+0000 becomes U+FFFD (Unicode's replacement character, as a decoder
 * writes for what it cannot read). PostgreSQL's `text` cannot hold U+0000, so a write holding one fails
 * whole; SQLite's trigram index drops it. The text itself when it holds none, nearly always.
 */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
