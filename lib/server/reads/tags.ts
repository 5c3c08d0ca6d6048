import 'server-only';
import { BULK_QUERY_MAX, tagKey, type TagColour } from '@/lib/api/annotations';
import type { ListState } from '@/lib/api/list-state';
import { isTagConflict } from '../annotations/service';
import type { RequestContext } from '../context';
import { getCollection } from '../data';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { annotatorOf, auditedChange } from './annotator';
import { guarded } from './collections';
import { kept } from './kept';

/**
 * Tags (section 16): the account's vocabulary (admins change it), a record's tags and many records tagged at
 * once (anyone signed in). Every change is audited: `tag_create`, `tag_change`, `tag_delete`, `tag_apply`,
 * `tag_remove`, a bulk one with its count.
 */
const TAGS = 'Tags';
const ok = <T>(message: string, data: T, status = 200) => ({
  body: { status: 'success' as const, message, data },
  status,
});
const unknownTag = (name: string) => new AppError('not_found', `Tag not found: ${name} (an admin adds it on Tags)`);

/** The vocabulary is the admins': a viewer's change is refused (and audited as refused). */
function adminsOnly(context: RequestContext): void {
  if (!annotatorOf(context).admin)
    throw new AppError('forbidden_role', 'Only admins add, change or delete tags: ask an admin of the dashboard');
}

function conflict(error: unknown): never {
  if (isTagConflict(error)) throw new AppError('bad_request', error.message);
  throw error;
}

export async function listTags(rt: Runtime, context: RequestContext) {
  annotatorOf(context);
  const tags = await kept(TAGS, () => rt.annotations.tags(true));
  return { status: 'success' as const, message: 'Tags retrieved', data: tags, meta: { count: tags.length } };
}

export async function createTag(rt: Runtime, context: RequestContext, body: { name: string; colour: TagColour }) {
  const tag = await auditedChange(
    rt,
    context,
    'tag_create',
    body.name,
    () => {
      adminsOnly(context);
      return kept(TAGS, () => rt.annotations.createTag(body.name, body.colour).catch(conflict));
    },
    () => ({ colour: body.colour }),
  );
  return ok('Tag created', tag, 201);
}

export async function changeTag(
  rt: Runtime,
  context: RequestContext,
  name: string,
  change: { name?: string; colour?: TagColour },
) {
  const tag = await auditedChange(
    rt,
    context,
    'tag_change',
    name,
    async () => {
      adminsOnly(context);
      const tag = await kept(TAGS, () => rt.annotations.changeTag(name, change).catch(conflict));
      if (!tag) throw unknownTag(name);
      return tag;
    },
    () => ({ ...change }),
  );
  return ok('Tag changed', tag);
}

export async function deleteTag(rt: Runtime, context: RequestContext, name: string) {
  const reader = annotatorOf(context);
  const done = await auditedChange(
    rt,
    context,
    'tag_delete',
    name,
    async () => {
      adminsOnly(context);
      const deleted = await kept(TAGS, () => rt.annotations.deleteTag(reader, name));
      if (!deleted) throw unknownTag(name);
      return deleted;
    },
    (result) => (result ? { removed: result.removed } : {}),
  );
  return ok('Tag deleted', done);
}

/** A record's tags set whole: each tag put on or taken off is one audit entry (`tag_apply`, `tag_remove`). */
export async function setCollectionTags(rt: Runtime, context: RequestContext, id: string, names: string[]) {
  const reader = annotatorOf(context);
  const wanted = await knownOrThrow(rt, names);
  await getCollection(rt, context, id);
  const { added, removed } = await kept(TAGS, () => rt.annotations.setTags(reader, id, wanted));
  for (const tag of added)
    await auditedChange(
      rt,
      context,
      'tag_apply',
      id,
      async () => tag,
      () => ({ tag }),
    );
  for (const tag of removed)
    await auditedChange(
      rt,
      context,
      'tag_remove',
      id,
      async () => tag,
      () => ({ tag }),
    );
  const tags = (await kept(TAGS, () => rt.annotations.tagsOf([id]))).get(id) ?? [];
  return ok('Tags set', { id, tags });
}

async function knownOrThrow(rt: Runtime, names: string[]): Promise<string[]> {
  const vocabulary = new Map((await kept(TAGS, () => rt.annotations.tags())).map((t) => [tagKey(t.name), t.name]));
  const unknown = names.find((name) => !vocabulary.has(tagKey(name)));
  if (unknown !== undefined) throw unknownTag(unknown);
  return names.map((name) => vocabulary.get(tagKey(name))!);
}
/** Every id a list state holds, up to BULK_QUERY_MAX (more is a 400 saying how many), read a chunk at a time. */
async function idsOf(rt: Runtime, state: ListState): Promise<string[]> {
  const queries = await rt.index.queries();
  const ids: string[] = [];
  let after: Awaited<ReturnType<typeof queries.ids>>['next'] = null;
  let plan: Awaited<ReturnType<typeof queries.ids>>['plan'] | undefined;
  for (;;) {
    const chunk = await guarded(rt, () => queries.ids(state, after, 5_000, plan));
    plan = chunk.plan;
    ids.push(...chunk.ids);
    if (ids.length > BULK_QUERY_MAX)
      throw new AppError(
        'bad_request',
        `Invalid query: it holds more than ${BULK_QUERY_MAX.toLocaleString('en')} collections; narrow it (a filter, a search) and tag again`,
      );
    if (chunk.ids.length < 5_000) return ids;
    after = chunk.next;
  }
}

/**
 * One tag put on many collections (`POST /api/tags/{name}/collections`): the ids given, or every row of a
 * list state. One audit entry, with how many were asked and how many changed.
 */
export async function tagCollections(
  rt: Runtime,
  context: RequestContext,
  name: string,
  body: { ids: string[] } | { query: ListState; text: string },
) {
  const reader = annotatorOf(context);
  const done = await auditedChange(
    rt,
    context,
    'tag_apply',
    name,
    async () => {
      const [tag] = await knownOrThrow(rt, [name]);
      const ids = 'ids' in body ? [...new Set(body.ids)] : await idsOf(rt, body.query);
      const changed = await kept(TAGS, () => rt.annotations.tagMany(reader, tag!, ids));
      return { tag: tag!, asked: ids.length, changed };
    },
    (result) => ({
      bulk: true,
      ...('ids' in body ? { ids: body.ids.length } : { query: body.text }),
      ...(result ? { asked: result.asked, changed: result.changed } : {}),
    }),
  );
  return ok(`Tagged ${done.changed.toLocaleString('en')} collections ${done.tag}`, {
    changed: done.changed,
    tag: done.tag,
    asked: done.asked,
  });
}

/** One tag of the vocabulary, with how many collections hold it. */
export async function getTag(rt: Runtime, context: RequestContext, name: string) {
  annotatorOf(context);
  const tag = (await kept(TAGS, () => rt.annotations.tags(true))).find((t) => tagKey(t.name) === tagKey(name));
  if (!tag) throw unknownTag(name);
  return { status: 'success' as const, message: 'Tag retrieved', data: tag };
}

/** A record's tags, each with its colour. */
export async function collectionTags(rt: Runtime, context: RequestContext, id: string) {
  annotatorOf(context);
  const tags = (await kept(TAGS, () => rt.annotations.tagsOf([id]))).get(id) ?? [];
  return { status: 'success' as const, message: 'Tags retrieved', data: { id, tags } };
}
