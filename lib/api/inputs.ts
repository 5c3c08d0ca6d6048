import { z } from 'zod';
import {
  BULK_IDS_MAX,
  DEFAULT_TAG_COLOUR,
  isNoteId,
  noteProblem,
  noteText,
  TAG_COLOURS,
  TAGS_PER_COLLECTION,
  tagNameProblem,
} from './annotations';
import { errorMessage } from './error-codes';
import { isCollectionId, isContactId, isProviderId } from './ids';
import {
  DEFAULT_LIMIT,
  isIndexed,
  parseListState,
  parseSearchState,
  readListState,
  type ParseResult,
} from './list-state';
import { parseOverviewState } from './overview';
import { parseAuditQuery } from './audit';
import { COLUMN_IDS, DEFAULT_COLUMNS, readColumns, type ListColumnId } from './columns';
import { isViewId, nameProblem, parseViewQuery, VIEW_LIMITS, viewName } from './views';

/**
 * The dashboard API's inputs in zod, one schema per route (path parameters,
 * query). An issue's message is the 400's whole message, and its path names
 * the parameter.
 */
export const collectionIdParams = z.object({
  id: z.string().refine(isCollectionId, errorMessage('bad_request', 'collection')),
});

export const contactIdParams = z.object({
  id: z.string().refine(isContactId, errorMessage('bad_request', 'contact')),
});

export const providerIdParams = z.object({
  id: z.string().refine(isProviderId, errorMessage('bad_request', 'provider')),
});

/** A strict parse as a zod transform: its problem becomes the issue, at the parameter's path. */
function fromState<T>(parse: (search: URLSearchParams) => ParseResult<T>, prefix: (param: string) => string) {
  return z.instanceof(URLSearchParams).transform((search, ctx) => {
    const parsed = parse(search);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', path: [parsed.param], message: `${prefix(parsed.param)}: ${parsed.message}` });
    return z.NEVER;
  });
}

/** The list's query, by the list-state schema's strict mode. */
export const listQuery = fromState(parseListState, (param) =>
  param === 'page' || param === 'limit' ? errorMessage('bad_request', 'collections') : `Invalid ${param}`,
);

/** `/api/search`: a query of 1–200 characters, and its page. */
export const searchQuery = fromState(parseSearchState, (param) => `Invalid ${param}`).refine(
  (state) => state.q !== undefined,
  { message: 'Invalid q: q is required (1 to 200 characters)', path: ['q'] },
);

/** `/api/overview`: the range. */
export const overviewQuery = fromState(parseOverviewState, (param) => `Invalid ${param}`);

/** `/api/audit` (admins): its filters and page (lib/api/audit.ts). */
export const auditQuery = fromState(parseAuditQuery, (param) => `Invalid ${param}`);

/** `0`/`1` switches of the export, each given at most once. */
function flag(search: URLSearchParams, name: string): boolean | { message: string } {
  const all = search.getAll(name);
  if (all.length > 1) return { message: `Invalid ${name}: give ${name} only once` };
  if (all.length === 0 || all[0] === '0') return false;
  if (all[0] === '1') return true;
  return { message: `Invalid ${name}: ${name} must be 1 or 0` };
}

/**
 * `/api/export/collections.csv`: the list's parameters (every page of the view is exported, so
 * `page` and `limit` are checked and then not used), `contacts=1` and `live=1`.
 */
export const exportQuery = z.instanceof(URLSearchParams).transform((search, ctx) => {
  const parsed = parseListState(search);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', path: [parsed.param], message: `Invalid ${parsed.param}: ${parsed.message}` });
    return z.NEVER;
  }
  const contacts = flag(search, 'contacts');
  const live = flag(search, 'live');
  for (const [name, value] of [
    ['contacts', contacts],
    ['live', live],
  ] as const) {
    if (typeof value === 'object') {
      ctx.addIssue({ code: 'custom', path: [name], message: value.message });
      return z.NEVER;
    }
  }
  if (live && isIndexed(parsed.value)) {
    ctx.addIssue({
      code: 'custom',
      path: ['live'],
      message:
        'Invalid live: a live export reads the unfiltered list only; remove the filters, search and sort, or export from the index (without live=1)',
    });
    return z.NEVER;
  }
  // A saved view's columns (contract section 13): the file holds those, in that order.
  const named = search.getAll('columns');
  let columns: ListColumnId[] | undefined;
  if (named.length) {
    const read = named.length === 1 ? readColumns(named[0]) : null;
    if (!read || read.dropped.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns'],
        message: `Invalid columns: give once a comma-separated list of ${COLUMN_IDS.join(', ')}`,
      });
      return z.NEVER;
    }
    columns = read.columns;
  }
  // For spreadsheets (the formula guard, a byte-order mark) or for programs (RFC 4180, cells as they are).
  const formats = search.getAll('format');
  if (formats.length > 1 || (formats.length === 1 && !['spreadsheet', 'plain'].includes(formats[0]!))) {
    ctx.addIssue({
      code: 'custom',
      path: ['format'],
      message: 'Invalid format: format must be spreadsheet or plain, given once',
    });
    return z.NEVER;
  }
  return {
    ...parsed.value,
    contacts: contacts as boolean,
    live: live as boolean,
    plain: formats[0] === 'plain',
    ...(columns ? { columns } : {}),
  };
});

/** `/api/views/{id}`: a view's id (`view_` and up to 64 of A–Z a–z 0–9 _ -). */
export const viewIdParams = z.object({
  id: z.string().refine(isViewId, 'Invalid id: a view id is view_ followed by up to 64 letters, digits, _ or -'),
});

const viewNameInput = z.string('Invalid name: name is required, 1 to 80 characters of text').transform((raw, ctx) => {
  const problem = nameProblem(raw);
  if (problem) ctx.addIssue({ code: 'custom', message: `Invalid name: ${problem}` });
  return viewName(raw);
});
const viewQueryInput = z.string("Invalid query: query must be text (the list's URL query)").transform((raw, ctx) => {
  const parsed = parseViewQuery(raw);
  if (parsed.ok) return parsed.query;
  ctx.addIssue({ code: 'custom', message: `Invalid ${parsed.param}: ${parsed.message}` });
  return z.NEVER;
});
const viewColumnsInput = z
  .array(z.string(), 'Invalid columns: columns must be a list of column ids')
  .transform((raw, ctx) => {
    const read = readColumns(raw);
    if (read && !read.dropped.length) return read.columns;
    ctx.addIssue({
      code: 'custom',
      message: read
        ? `Invalid columns: ${read.dropped[0]} is not a column (${COLUMN_IDS.join(', ')}), or is given twice`
        : `Invalid columns: give 1 to ${COLUMN_IDS.length} of ${COLUMN_IDS.join(', ')}`,
    });
    return z.NEVER;
  });
const viewLimitInput = z
  .number('Invalid limit: limit must be a number')
  .refine((n) => VIEW_LIMITS.includes(n), `Invalid limit: limit must be one of ${VIEW_LIMITS.join(', ')}`);

/** `POST /api/views`: a new view (contract section 13). */
export const viewCreateBody = z.strictObject({
  name: viewNameInput,
  query: viewQueryInput.default(''),
  columns: viewColumnsInput.default([...DEFAULT_COLUMNS]),
  limit: viewLimitInput.default(DEFAULT_LIMIT),
  shared: z.boolean('Invalid shared: shared must be true or false').default(false),
});

/**
 * `PUT /api/views/{id}`: what changes, each optional: the owner's name, state and sharing; anyone's own
 * default (`default`); an admin's pin of a shared view (`pinned`).
 */
export const viewUpdateBody = z
  .strictObject({
    name: viewNameInput.optional(),
    query: viewQueryInput.optional(),
    columns: viewColumnsInput.optional(),
    limit: viewLimitInput.optional(),
    shared: z.boolean('Invalid shared: shared must be true or false').optional(),
    default: z.boolean('Invalid default: default must be true or false').optional(),
    pinned: z.boolean('Invalid pinned: pinned must be true or false').optional(),
  })
  .refine(
    (body) => Object.keys(body).length > 0,
    'Give at least one of name, query, columns, limit, shared, default, pinned',
  );

export type ViewCreate = z.output<typeof viewCreateBody>;
export type ViewUpdate = z.output<typeof viewUpdateBody>;

/**
 * `POST /api/drift`: an admin acknowledges one entry of the schema-drift report (contract section 11), named
 * as the report names it: a field by its path, a value by its path and the value.
 */
export const driftAcknowledgeBody = z
  .strictObject({
    kind: z.enum(['field', 'value'], 'Invalid kind: kind must be field or value'),
    path: z
      .string('Invalid path: path must be a string')
      .min(1, 'Invalid path: path must not be empty')
      .max(200, 'Invalid path: path must be at most 200 characters'),
    value: z
      .string('Invalid value: value must be a string')
      .max(100, 'Invalid value: value must be at most 100 characters')
      .optional(),
  })
  .refine((b) => (b.kind === 'value') === (b.value !== undefined), {
    path: ['value'],
    message: 'Invalid value: a value entry names its value, a field entry none',
  });

// Notes and tags (contract section 16).

/** `/api/notes/{noteId}`: a note's id (`note_` and up to 64 of A–Z a–z 0–9 _ -). */
export const noteIdParams = z.object({
  noteId: z
    .string()
    .refine(isNoteId, 'Invalid noteId: a note id is note_ followed by up to 64 letters, digits, _ or -'),
});

/** `POST /api/collections/{id}/notes`, `POST /api/contacts/{id}/notes`: the note's plain text. */
export const noteBody = z.strictObject({
  text: z.string('Invalid text: text is required, 1 to 2,000 characters').transform((raw, ctx) => {
    const problem = noteProblem(raw);
    if (problem) ctx.addIssue({ code: 'custom', message: `Invalid text: ${problem}` });
    return noteText(raw);
  }),
});

const tagName = (field: string) =>
  z.string(`Invalid ${field}: ${field} is required, a tag name`).check((ctx) => {
    const problem = tagNameProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: `Invalid ${field}: ${problem}`, input: ctx.value });
  });
const tagColour = z.enum(TAG_COLOURS, `Invalid colour: colour must be one of ${TAG_COLOURS.join(', ')}`);

/** `/api/tags/{name}`. */
export const tagNameParams = z.object({ name: tagName('name') });

/** `POST /api/tags` (admins): a new tag, grey unless a colour is given. */
export const tagCreateBody = z.strictObject({ name: tagName('name'), colour: tagColour.default(DEFAULT_TAG_COLOUR) });

/** `PUT /api/tags/{name}` (admins): its colour, or a new name; at least one. */
export const tagChangeBody = z
  .strictObject({ name: tagName('name').optional(), colour: tagColour.optional() })
  .refine((body) => body.name !== undefined || body.colour !== undefined, 'Invalid body: give name or colour');

/** `PUT /api/collections/{id}/tags`: the record's tags, whole. */
export const collectionTagsBody = z.strictObject({
  tags: z
    .array(tagName('tags'), 'Invalid tags: tags must be a list of tag names')
    .max(TAGS_PER_COLLECTION, `Invalid tags: at most ${TAGS_PER_COLLECTION} tags a collection`),
});

/** `POST /api/tags/{name}/collections`: the ids (up to 1,000), or a list state's query for every row it holds. */
export const bulkTagBody = z.union(
  [
    z.strictObject({
      ids: z
        .array(
          z.string().refine(isCollectionId, 'Invalid ids: each id must be a collection id (pay_…)'),
          'Invalid ids: ids must be a list of collection ids',
        )
        .min(1, 'Invalid ids: give at least one id')
        .max(
          BULK_IDS_MAX,
          `Invalid ids: at most ${BULK_IDS_MAX.toLocaleString('en')} ids; tag a list by its query instead`,
        ),
    }),
    z.strictObject({
      query: z.string("Invalid query: query must be text (the list's URL query)").transform((raw, ctx) => {
        const parsed = parseViewQuery(raw);
        if (!parsed.ok) {
          ctx.addIssue({ code: 'custom', message: `Invalid ${parsed.param}: ${parsed.message}` });
          return z.NEVER;
        }
        return { text: parsed.query, state: readListState(new URLSearchParams(parsed.query)) };
      }),
    }),
  ],
  'Invalid body: give ids (a list of collection ids) or query (a list state)',
);
