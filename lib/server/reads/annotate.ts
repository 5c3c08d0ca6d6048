import 'server-only';
import type { RowAnnotations } from '@/lib/api/annotations';
import type { Runtime } from '../runtime';

type Annotatable = { data: { id: string; contact?: { id?: string } }[]; meta: Record<string, unknown> };

/**
 * A list page with what the team added to its rows (section 16): `meta.annotations`, by id, each row's tags
 * (name and colour) and whether it has notes, its own or its contact's; rows with neither are left out. Two
 * statements through the tags' and notes' indexes, side by side. A bystander: when the application's
 * database cannot answer, the page is shown without them.
 */
export async function annotated<P extends Annotatable>(rt: Runtime, page: P): Promise<P> {
  const ids = page.data.map((r) => r.id);
  if (!ids.length) return page;
  try {
    const contacts = [...new Set(page.data.flatMap((r) => (r.contact?.id ? [r.contact.id] : [])))];
    const [tags, noted] = await Promise.all([rt.annotations.tagsOf(ids), rt.annotations.noted(ids, contacts)]);
    const annotations: Record<string, RowAnnotations> = {};
    for (const row of page.data) {
      const held = tags.get(row.id);
      const notes = noted.collections.has(row.id) || (row.contact?.id ? noted.contacts.has(row.contact.id) : false);
      if (held || notes) annotations[row.id] = { tags: held ?? [], notes };
    }
    // Absent when no row has any: a page of plain rows keeps the envelope it always had.
    return Object.keys(annotations).length ? { ...page, meta: { ...page.meta, annotations } } : page;
  } catch {
    return page;
  }
}
