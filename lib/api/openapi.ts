import { z } from 'zod';
import { AUDIT_ACTION_NAMES } from './audit';
import { ERROR_STATUS, errorBodySchema } from './errors';
import { collectionSchema, listMetaSchema, providerSchema } from './schemas';
import { filterSchema, listStateSchema, searchStateSchema, type Schema } from './list-state';
import { overviewSchema } from './overview';
import { OVERVIEW_PARAM_DOCS, PARAM_DOCS, type ParamDoc } from './params';
import { COLUMN_IDS } from './columns';
import { MATCHED_FIELDS } from './summary';
import {
  bulkTagBody,
  collectionTagsBody,
  driftAcknowledgeBody,
  noteBody,
  tagChangeBody,
  tagCreateBody,
  viewCreateBody,
  viewUpdateBody,
} from './inputs';
import { TAG_COLOURS } from './annotations';

/**
 * The OpenAPI 3.1 description of the dashboard's own `/api` (contract section
 * 11), built from the zod schemas the routes parse with (`z.toJSONSchema`,
 * JSON Schema 2020-12 as OpenAPI 3.1 uses), served at `/api/openapi.json` and
 * validated in a test. A route added without a line here fails that test.
 */
const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' });
/** A request body as it is sent (before the route's transforms). */
const inputSchema = (s: z.ZodType) =>
  z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'integer', description, ...extra });
const query = (name: string, s: Record<string, unknown>) => ({ name, in: 'query', required: false, schema: s });
const viewIdParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^view_[A-Za-z0-9_-]{1,64}$' },
};
const idParam = (prefix: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: `^${prefix}_[A-Za-z0-9_-]{1,128}$` },
});

/**
 * A route's query parameters, generated from the URL-state schema its input parses with (lib/api/inputs.ts):
 * the names, types, rules, defaults and an example that the strict parse accepts. Never written by hand, so
 * they cannot drift from what the route takes (openapi.test.ts checks both against each other).
 */
export function stateParameters(
  s: Schema,
  required: readonly string[] = [],
  docs: Record<string, ParamDoc> = PARAM_DOCS,
) {
  return Object.entries(s).map(([name, field]) => {
    const words = docs[name] ?? PARAM_DOCS[name];
    if (!words) throw new Error(`OpenAPI: no PARAM_DOCS line for the parameter ${name}`);
    const { example, ...doc } = words;
    const fallback = field.format(field.fallback);
    const typed = (text: string) => (doc.type === 'integer' ? Number(text) : text);
    return {
      name,
      in: 'query',
      required: required.includes(name),
      schema: { ...doc, ...(fallback ? { default: typed(fallback) } : {}) },
      example: typed(example),
    };
  });
}

/** Every error the route may answer, by the contract's table (section 4). */
function errors(...codes: (keyof typeof ERROR_STATUS)[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(', '), content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );
}

const UPSTREAM = [
  'upstream_auth',
  'upstream_rejected',
  'upstream_error',
  'upstream_unreachable',
  'upstream_invalid',
  'upstream_timeout',
  'rate_limited',
] as const;
const GATED = ['unauthorized', 'forbidden_account', 'method_not_allowed'] as const;

const ok = (description: string, body: Record<string, unknown>, type = 'application/json') => ({
  '200': { description, content: { [type]: { schema: body } } },
});
const envelope = (data: Record<string, unknown>, meta = false) => ({
  type: 'object',
  required: ['status', 'message', 'data'],
  properties: {
    status: { const: 'success' },
    message: { type: 'string' },
    data,
    ...(meta ? { meta: ref('ListMeta') } : {}),
  },
});

const bearerOrBasic = [{ basic: [] }, { session: [] }];

/** `account=`: every route of the gate takes it (section 3); `/api/search` also `all`. */
const ACCOUNT_PARAM = {
  name: 'account',
  in: 'query',
  required: false,
  description:
    "The account's id (ACCOUNTS); absent: the user's last account, else the first they may see. /api/search also takes `all`.",
  schema: { type: 'string', pattern: '^(all|[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?)$' },
};
const UNGATED = new Set(['/api/health', '/api/ready', '/api/metrics', '/api/openapi.json']);

/** The document with `account=` on every gated operation. */
export function openApiDocument(version: string) {
  const document = documentOf(version);
  for (const [path, item] of Object.entries(document.paths) as [string, Record<string, { parameters?: unknown[] }>][])
    if (!UNGATED.has(path))
      for (const operation of Object.values(item))
        operation.parameters = [...(operation.parameters ?? []), ACCOUNT_PARAM];
  return document;
}

function documentOf(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Collections Console API',
      version,
      description:
        'The dashboard’s own read API over the payments upstream: gated like its pages (a session, HTTP Basic, or open mode). Every error is `{ status: "error", message, code }`.',
    },
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        session: { type: 'apiKey', in: 'cookie', name: 'cc-session' },
        metrics: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        Collection: schema(collectionSchema),
        Provider: schema(providerSchema),
        ListMeta: schema(listMetaSchema),
        Error: schema(errorBodySchema),
        CollectionSummary: {
          type: 'object',
          required: [
            'id',
            'reference',
            'type',
            'status',
            'amount',
            'contact',
            'createdAt',
            'updatedAt',
            'completedAt',
            'lineItemCount',
            'payable',
            'followUp',
          ],
          properties: {
            id: { type: 'string' },
            reference: { type: 'string' },
            type: { type: 'string' },
            status: { type: 'string' },
            amount: { type: 'object', properties: { value: { type: 'integer' }, currency: { type: 'string' } } },
            contact: {
              type: 'object',
              description:
                'Opened from the sealed contact per request, never stored readable: the names; `email` and `phone` as the reader may see them (in full, or masked for a viewer under VIEWER_CONTACT_DETAILS=masked); and always masked (first character and domain; country code and last four digits).',
              properties: {
                firstName: { type: 'string' },
                lastName: { type: 'string' },
                email: { type: 'string' },
                phone: { type: 'string' },
                emailMasked: { type: 'string' },
                phoneMasked: { type: 'string' },
                id: {
                  type: 'string',
                  description: 'The contact id (its page); absent on a row sealed before contact pages',
                },
              },
            },
            payable: {
              type: ['object', 'null'],
              description:
                "The payable methods (the list's Methods column); null until the sync rewrites a row kept before them.",
              properties: { methods: { type: 'array', items: { type: 'string' } } },
            },
            followUp: {
              type: ['object', 'null'],
              description: "The follow-up settings (the list's Follow-up column); null as payable.",
              properties: { enabled: { type: 'boolean' }, channels: { type: 'array', items: { type: 'string' } } },
            },
            createdAt: { type: 'string' },
            updatedAt: { type: 'string' },
            completedAt: { type: ['string', 'null'] },
            lineItemCount: { type: 'integer' },
            matched: {
              type: 'array',
              items: {
                type: 'string',
                enum: [...MATCHED_FIELDS],
              },
            },
          },
        },
        AuditEntry: {
          type: 'object',
          required: ['at', 'user', 'role', 'action', 'target', 'requestId', 'outcome'],
          properties: {
            at: { type: 'string' },
            user: { type: 'string' },
            role: { type: 'string' },
            action: { type: 'string', enum: [...AUDIT_ACTION_NAMES] },
            target: { type: ['string', 'null'] },
            detail: { type: ['object', 'null'] },
            requestId: { type: 'string' },
            outcome: { type: 'string' },
          },
        },
        SavedView: {
          type: 'object',
          required: ['id', 'name', 'query', 'columns', 'limit', 'shared', 'owner', 'createdAt', 'updatedAt'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string', maxLength: 80 },
            query: { type: 'string', description: "The list's URL query without page and limit" },
            columns: { type: 'array', items: { type: 'string', enum: [...COLUMN_IDS] } },
            limit: { type: 'integer', enum: [10, 25, 50, 100] },
            shared: { type: 'boolean' },
            owner: { type: 'string' },
            createdAt: { type: 'string' },
            updatedAt: { type: 'string' },
            pinned: { type: ['integer', 'null'] },
            mine: { type: 'boolean' },
            isDefault: { type: 'boolean' },
            count: { type: ['integer', 'null'], description: 'With counts=1' },
            asOf: { type: ['string', 'null'], description: 'With counts=1' },
          },
        },
        Note: {
          type: 'object',
          required: ['id', 'on', 'subjectId', 'author', 'createdAt', 'text', 'deleted', 'deletable'],
          properties: {
            id: { type: 'string' },
            on: { type: 'string', enum: ['collection', 'contact'] },
            subjectId: { type: 'string' },
            author: { type: 'string' },
            createdAt: { type: 'string' },
            text: { type: ['string', 'null'], description: 'Plain text; null once deleted' },
            deleted: {
              type: ['object', 'null'],
              properties: { by: { type: 'string' }, at: { type: 'string' } },
            },
            deletable: { type: 'boolean', description: 'Whether the reader may delete it now' },
          },
        },
        NoteInput: inputSchema(noteBody),
        Tag: {
          type: 'object',
          required: ['name', 'colour', 'count', 'createdAt', 'updatedAt'],
          properties: {
            name: { type: 'string' },
            colour: { type: 'string', enum: [...TAG_COLOURS] },
            count: { type: 'integer', description: 'How many collections hold it' },
            createdAt: { type: 'string' },
            updatedAt: { type: 'string' },
          },
        },
        TagInput: inputSchema(tagCreateBody),
        TagChange: inputSchema(tagChangeBody),
        CollectionTags: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            tags: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: { type: 'string' }, colour: { type: 'string', enum: [...TAG_COLOURS] } },
              },
            },
          },
        },
        CollectionTagsInput: inputSchema(collectionTagsBody),
        BulkTagInput: inputSchema(bulkTagBody),
        SavedViewInput: inputSchema(viewCreateBody),
        SavedViewChange: inputSchema(viewUpdateBody),
        DriftEntry: {
          type: 'object',
          required: ['kind', 'path', 'count', 'firstSeen', 'lastSeen', 'exampleId', 'baseline'],
          properties: {
            kind: { type: 'string', enum: ['field', 'value'] },
            path: { type: 'string' },
            value: { type: 'string' },
            count: { type: 'integer' },
            firstSeen: { type: 'string' },
            lastSeen: { type: 'string' },
            exampleId: { type: 'string' },
            baseline: {
              type: 'boolean',
              description: 'First seen by the end of the first whole sync, or acknowledged; false: new since',
            },
            acknowledged: {
              type: 'object',
              properties: { at: { type: 'string' }, by: { type: 'string' } },
            },
          },
        },
        DriftAcknowledge: inputSchema(driftAcknowledgeBody),
      },
    },
    security: bearerOrBasic,
    paths: {
      '/api/collections': {
        get: {
          summary: 'The collections list: live from the upstream, or from the index when filtered, sorted or searched',
          parameters: stateParameters(listStateSchema),
          responses: {
            ...ok(
              'A page of collections',
              envelope({ type: 'array', items: { anyOf: [ref('Collection'), ref('CollectionSummary')] } }, true),
            ),
            ...errors('bad_request', ...GATED, 'forbidden', 'index_unavailable', 'index_busy', ...UPSTREAM),
          },
        },
      },
      '/api/contacts/{id}': {
        get: {
          summary:
            "A contact's totals per currency and its collections from the index, as the list (its filters, sort, q and pages)",
          parameters: [idParam('contact'), ...stateParameters(listStateSchema).filter((p) => p.name !== 'contact')],
          responses: {
            ...ok(
              'The contact',
              envelope(
                {
                  type: 'object',
                  required: ['contact', 'totals', 'sameEmail', 'collections'],
                  properties: {
                    contact: {
                      type: 'object',
                      properties: {
                        firstName: { type: 'string' },
                        lastName: { type: 'string' },
                        email: { type: 'string' },
                        phone: { type: 'string' },
                        emailMasked: { type: 'string' },
                        phoneMasked: { type: 'string' },
                      },
                    },
                    totals: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['currency', 'pending', 'completed', 'other'],
                        properties: Object.fromEntries([
                          ['currency', { type: 'string' }],
                          ...['pending', 'completed', 'other'].map((k) => [
                            k,
                            {
                              type: 'object',
                              properties: { count: { type: 'integer' }, amount: { type: 'integer' } },
                            },
                          ]),
                        ]),
                      },
                    },
                    sameEmail: {
                      type: 'array',
                      description: 'Other contact ids under the same e-mail (a person created again upstream)',
                      items: {
                        type: 'object',
                        properties: {
                          id: { type: 'string' },
                          firstName: { type: 'string' },
                          lastName: { type: 'string' },
                          count: { type: 'integer' },
                        },
                      },
                    },
                    collections: { type: 'array', items: ref('CollectionSummary') },
                  },
                },
                true,
              ),
            ),
            ...errors('bad_request', ...GATED, 'not_found', 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/collections/{id}': {
        get: {
          summary: 'One collection, read live',
          parameters: [idParam('pay')],
          responses: {
            ...ok('The collection', envelope(ref('Collection'))),
            ...errors('bad_request', ...GATED, 'forbidden', 'not_found', ...UPSTREAM),
          },
        },
      },
      '/api/collections/{id}/history': {
        get: {
          summary:
            'What the index saw change in one collection, newest first: each change between the last time the version before was seen and the first time it was seen changed (a contact change names no values)',
          parameters: [idParam('pay')],
          responses: {
            ...ok(
              'The history',
              envelope({
                type: 'array',
                items: {
                  type: 'object',
                  required: ['seenAt', 'notSeenBefore', 'changes'],
                  properties: {
                    seenAt: { type: 'string' },
                    notSeenBefore: { type: 'string' },
                    changes: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['field'],
                        properties: { field: { type: 'string' }, from: {}, to: {} },
                      },
                    },
                  },
                },
              }),
            ),
            ...errors('bad_request', ...GATED, 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/providers/{id}': {
        get: {
          summary: 'One provider, read live',
          parameters: [idParam('prv')],
          responses: {
            ...ok('The provider', envelope(ref('Provider'))),
            ...errors('bad_request', ...GATED, 'forbidden', 'not_found', ...UPSTREAM),
          },
        },
      },
      '/api/search': {
        get: {
          summary: 'Search the index by e-mail, phone, its last four digits, name or reference',
          parameters: stateParameters(searchStateSchema, ['q']),
          responses: {
            ...ok('Matching collections', envelope({ type: 'array', items: ref('CollectionSummary') }, true)),
            ...errors('bad_request', ...GATED, 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/index/status': {
        get: {
          summary: 'The search index’s state and freshness',
          responses: { ...ok('Index status', envelope({ type: 'object' })), ...errors(...GATED) },
        },
      },
      '/api/overview': {
        get: {
          summary: 'Totals and trends per currency for a range',
          parameters: stateParameters(overviewSchema, [], OVERVIEW_PARAM_DOCS),
          responses: {
            ...ok('The overview', envelope({ type: 'object' })),
            ...errors('bad_request', ...GATED, 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/export/collections.csv': {
        get: {
          summary: 'The view as CSV: every page, its filters, sort and search',
          parameters: [
            ...stateParameters(filterSchema),
            {
              ...query('contacts', { type: 'string', enum: ['0', '1'], description: 'Add e-mail and phone (admins)' }),
              example: '1',
            },
            {
              ...query('live', {
                type: 'string',
                enum: ['0', '1'],
                description: 'Read the upstream live (unfiltered, up to 10,000 rows)',
              }),
              example: '1',
            },
            {
              ...query(
                'columns',
                str(
                  `A saved view's columns, comma-separated, in order (${COLUMN_IDS.join(', ')}): the file holds those, then as_of`,
                ),
              ),
              example: 'reference,amount,status',
            },
            {
              ...query('format', {
                type: 'string',
                enum: ['spreadsheet', 'plain'],
                description:
                  'spreadsheet (default): formula cells guarded, a byte-order mark; plain: RFC 4180, every cell as it is (for programs)',
              }),
              example: 'plain',
            },
          ],
          responses: {
            ...ok('RFC 4180 CSV, UTF-8 with a BOM', { type: 'string' }, 'text/csv'),
            ...errors('bad_request', ...GATED, 'forbidden_role', 'index_unavailable', 'index_busy', ...UPSTREAM),
          },
        },
      },
      '/api/audit': {
        get: {
          summary: 'The audit log (admins)',
          parameters: [
            query('user', str('E-mail or Basic user name')),
            query('action', { type: 'string', enum: [...AUDIT_ACTION_NAMES] }),
            query('target', str('A record id, or overview')),
            query('searched', str('Search text, hashed on the server as searches are stored')),
            query('from', str('First UTC day, YYYY-MM-DD', { format: 'date' })),
            query('to', str('Last UTC day, YYYY-MM-DD', { format: 'date' })),
            query('page', int('Page, from 1', { minimum: 1, default: 1 })),
            query('limit', int('Entries a page', { minimum: 1, maximum: 100, default: 50 })),
          ],
          responses: {
            ...ok('Audit entries, newest first', envelope({ type: 'array', items: ref('AuditEntry') }, true)),
            ...errors('bad_request', ...GATED, 'forbidden_role', 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/views': {
        get: {
          summary: 'Saved views: the reader’s own and the team’s shared ones (counts=1 adds each one’s count)',
          parameters: [{ ...query('counts', { type: 'string', enum: ['0', '1'] }), example: '1' }],
          responses: {
            ...ok('The views', envelope({ type: 'array', items: ref('SavedView') })),
            ...errors('bad_request', ...GATED, 'index_unavailable', 'index_busy'),
          },
        },
        post: {
          summary: 'Save a view (shared: admins only)',
          requestBody: { required: true, content: { 'application/json': { schema: ref('SavedViewInput') } } },
          responses: {
            '201': { description: 'The view', content: { 'application/json': { schema: envelope(ref('SavedView')) } } },
            ...errors('bad_request', ...GATED, 'forbidden', 'forbidden_role', 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/views/{id}': {
        get: {
          summary: 'One view: the reader’s own, or shared with everyone (else 404)',
          parameters: [viewIdParam],
          responses: {
            ...ok('The view', envelope(ref('SavedView'))),
            ...errors('bad_request', ...GATED, 'not_found', 'index_unavailable', 'index_busy'),
          },
        },
        put: {
          summary:
            'Change a view: its owner its name, state and sharing (admins share); anyone their default; admins pin shared views',
          parameters: [viewIdParam],
          requestBody: { required: true, content: { 'application/json': { schema: ref('SavedViewChange') } } },
          responses: {
            ...ok('The view', envelope(ref('SavedView'))),
            ...errors(
              'bad_request',
              ...GATED,
              'forbidden',
              'forbidden_role',
              'not_found',
              'index_unavailable',
              'index_busy',
            ),
          },
        },
        delete: {
          summary: 'Delete a view (its owner)',
          parameters: [viewIdParam],
          responses: {
            ...ok('Deleted', envelope({ type: 'object', properties: { id: { type: 'string' } } })),
            ...errors('bad_request', ...GATED, 'forbidden', 'not_found', 'index_unavailable', 'index_busy'),
          },
        },
      },
      ...annotationPaths(),
      '/api/drift': {
        get: {
          summary: 'Fields and open-set values the upstream sends that the seed does not describe',
          responses: {
            ...ok('The drift report', envelope({ type: 'array', items: ref('DriftEntry') })),
            ...errors(...GATED, 'index_unavailable', 'index_busy'),
          },
        },
        post: {
          summary: 'Acknowledge one entry (admins): it joins the baseline; audited',
          requestBody: { required: true, content: { 'application/json': { schema: ref('DriftAcknowledge') } } },
          responses: {
            ...ok('The drift report', envelope({ type: 'array', items: ref('DriftEntry') })),
            ...errors('bad_request', ...GATED, 'forbidden_role', 'not_found', 'index_unavailable', 'index_busy'),
          },
        },
      },
      '/api/openapi.json': {
        get: { summary: 'This document', responses: { ...ok('OpenAPI 3.1', { type: 'object' }), ...errors(...GATED) } },
      },
      '/api/health': {
        get: {
          summary: 'Liveness (not gated)',
          security: [],
          responses: ok(
            'The process answers',
            envelope({ type: 'object', properties: { version: { type: 'string' } } }),
          ),
        },
      },
      '/api/ready': {
        get: {
          summary: 'Readiness (not gated): the upstream answers with the key, the index is not failing',
          security: [],
          responses: {
            ...ok('Ready', envelope({ type: 'object' })),
            '503': {
              description: 'Not ready: which check failed',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/api/metrics': {
        get: {
          summary: 'Prometheus metrics (Bearer METRICS_TOKEN)',
          security: [{ metrics: [] }],
          responses: {
            ...ok('Prometheus text format', { type: 'string' }, 'text/plain'),
            '401': { description: 'A wrong token' },
            '404': { description: 'METRICS_TOKEN is unset' },
          },
        },
      },
    },
    'x-error-codes': Object.fromEntries(Object.entries(ERROR_STATUS)),
  };
}

const noteIdParam = {
  name: 'noteId',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^note_[A-Za-z0-9_-]{1,64}$' },
};
const tagNameParam = {
  name: 'name',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[\\p{L}\\p{N}_-]{1,40}$' },
};
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const created = (what: string, s: Record<string, unknown>) => ({
  '201': { description: what, content: { 'application/json': { schema: envelope(s) } } },
});
const KEPT_ERRORS = ['index_unavailable', 'index_busy'] as const;

/** Notes and tags (contract section 16). */
function annotationPaths() {
  const notes = (kind: 'collection' | 'contact') => ({
    get: {
      summary:
        kind === 'collection'
          ? 'A collection’s notes and its contact’s, newest first'
          : 'A contact’s notes (shown on each of its collections), newest first',
      parameters: [idParam(kind === 'collection' ? 'pay' : 'contact')],
      responses: {
        ...ok('The notes', envelope({ type: 'array', items: ref('Note') })),
        ...errors('bad_request', ...GATED, 'not_found', ...KEPT_ERRORS, ...(kind === 'collection' ? UPSTREAM : [])),
      },
    },
    post: {
      summary: 'Add a note (plain text, 1 to 2,000 characters); audited note_add',
      parameters: [idParam(kind === 'collection' ? 'pay' : 'contact')],
      requestBody: body('NoteInput'),
      responses: {
        ...created('The note', ref('Note')),
        ...errors('bad_request', ...GATED, 'forbidden', 'not_found', ...KEPT_ERRORS, ...UPSTREAM),
      },
    },
  });
  return {
    '/api/collections/{id}/notes': notes('collection'),
    '/api/contacts/{id}/notes': notes('contact'),
    '/api/notes/{noteId}': {
      get: {
        summary: 'One note',
        parameters: [noteIdParam],
        responses: {
          ...ok('The note', envelope(ref('Note'))),
          ...errors('bad_request', ...GATED, 'not_found', ...KEPT_ERRORS),
        },
      },
      delete: {
        summary: 'Delete a note: its author within 15 minutes, an admin any time; audited note_delete',
        parameters: [noteIdParam],
        responses: {
          ...ok('The deleted note', envelope(ref('Note'))),
          ...errors('bad_request', ...GATED, 'forbidden', 'forbidden_role', 'not_found', ...KEPT_ERRORS),
        },
      },
    },
    '/api/tags': {
      get: {
        summary: 'The account’s tags, each with how many collections hold it',
        responses: {
          ...ok('The tags', envelope({ type: 'array', items: ref('Tag') })),
          ...errors(...GATED, ...KEPT_ERRORS),
        },
      },
      post: {
        summary: 'Add a tag (admins); audited tag_create',
        requestBody: body('TagInput'),
        responses: {
          ...created('The tag', ref('Tag')),
          ...errors('bad_request', ...GATED, 'forbidden', 'forbidden_role', ...KEPT_ERRORS),
        },
      },
    },
    '/api/tags/{name}': {
      get: {
        summary: 'One tag',
        parameters: [tagNameParam],
        responses: {
          ...ok('The tag', envelope(ref('Tag'))),
          ...errors('bad_request', ...GATED, 'not_found', ...KEPT_ERRORS),
        },
      },
      put: {
        summary: 'Change a tag’s colour or name (admins); audited tag_change',
        parameters: [tagNameParam],
        requestBody: body('TagChange'),
        responses: {
          ...ok('The tag', envelope(ref('Tag'))),
          ...errors('bad_request', ...GATED, 'forbidden', 'forbidden_role', 'not_found', ...KEPT_ERRORS),
        },
      },
      delete: {
        summary: 'Delete a tag and take it off every collection (admins); audited tag_delete with the count',
        parameters: [tagNameParam],
        responses: {
          ...ok(
            'Deleted',
            envelope({ type: 'object', properties: { name: { type: 'string' }, removed: { type: 'integer' } } }),
          ),
          ...errors('bad_request', ...GATED, 'forbidden', 'forbidden_role', 'not_found', ...KEPT_ERRORS),
        },
      },
    },
    '/api/collections/{id}/tags': {
      get: {
        summary: 'A collection’s tags',
        parameters: [idParam('pay')],
        responses: {
          ...ok('Its tags', envelope(ref('CollectionTags'))),
          ...errors('bad_request', ...GATED, ...KEPT_ERRORS),
        },
      },
      put: {
        summary: 'Set a collection’s tags whole; each one put on or taken off audited tag_apply or tag_remove',
        parameters: [idParam('pay')],
        requestBody: body('CollectionTagsInput'),
        responses: {
          ...ok('Its tags', envelope(ref('CollectionTags'))),
          ...errors('bad_request', ...GATED, 'forbidden', 'not_found', ...KEPT_ERRORS, ...UPSTREAM),
        },
      },
    },
    '/api/tags/{name}/collections': {
      get: {
        summary: 'The tag’s collections, as /api/collections?tag={name} lists them',
        parameters: [tagNameParam, ...stateParameters(listStateSchema).filter((p) => p.name !== 'tag')],
        responses: {
          ...ok('A page of collections', envelope({ type: 'array', items: ref('CollectionSummary') }, true)),
          ...errors('bad_request', ...GATED, 'index_unavailable', 'index_busy'),
        },
      },
      post: {
        summary:
          'Put the tag on many collections: ids (up to 1,000) or every row of a list state (query, up to 100,000); audited tag_apply with the counts',
        parameters: [tagNameParam],
        requestBody: body('BulkTagInput'),
        responses: {
          ...ok(
            'How many collections newly hold it',
            envelope({ type: 'object', properties: { changed: { type: 'integer' }, asked: { type: 'integer' } } }),
          ),
          ...errors('bad_request', ...GATED, 'forbidden', 'not_found', ...KEPT_ERRORS),
        },
      },
    },
  };
}
