/**
 * An id in a table cell, cut in the middle when the column is narrow so its
 * prefix and its last six characters stay readable (`.id-cut`); the element's
 * text is the whole id, for selection, search in page and assistive technology.
 */
export function IdText({ id }: { id: string }) {
  return idText(id);
}

/** IdText's markup as a plain call: a table's cells render it without a component each. */
export function idText(id: string) {
  return (
    <span className="id-cut" title={id}>
      <span>{id.slice(0, -6)}</span>
      <span>{id.slice(-6)}</span>
    </span>
  );
}
