/**
 * Whether a text holds a control character (Unicode's Cc: a NUL, a tab, a line break, DEL, ...). What people
 * type into the dashboard's fields and filters holds none; PostgreSQL's text cannot hold a NUL at all.
 */
export const holdsControl = (text: string): boolean => /\p{Cc}/u.test(text);
