import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_COLUMNS } from './columns';
import { viewCreateBody, viewUpdateBody } from './inputs';
import { defaults, listStateSchema } from './list-state';
import {
  nameProblem,
  openViewState,
  parseViewQuery,
  urlStatesList,
  viewChanged,
  viewUrl,
  type SavedView,
} from './views';

const view = (over: Partial<SavedView> = {}): SavedView => ({
  id: 'view_abc',
  name: 'Pending NGN',
  query: 'status=pending&currency=NGN&sort=createdAt',
  columns: ['reference', 'amount', 'status'],
  limit: 25,
  shared: false,
  owner: 'grace@example.com',
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
  pinned: null,
  mine: true,
  isDefault: false,
  ...over,
});

describe('a view’s query, as saved (strict)', () => {
  it('keeps the filters, search and sort, canonical', () => {
    expect(parseViewQuery('?currency=NGN&status=pending,on_hold&sort=-amount')).toEqual({
      ok: true,
      query: 'status=pending%2Con_hold&currency=NGN&sort=-amount',
    });
    expect(parseViewQuery('')).toEqual({ ok: true, query: '' });
  });

  it('refuses a bad value naming the parameter, and anything the list does not keep', () => {
    expect(parseViewQuery('amountMin=12.5')).toMatchObject({ ok: false, param: 'query.amountMin' });
    expect(parseViewQuery('sort=name')).toMatchObject({ ok: false, param: 'query.sort' });
    expect(parseViewQuery('createdFrom=2026-02-30')).toMatchObject({ ok: false, param: 'query.createdFrom' });
    // A contact's collections are its page's, never a saved view's.
    expect(parseViewQuery('contact=contact_8Hq2')).toMatchObject({ ok: false, param: 'query.contact' });
    expect(parseViewQuery('page=2')).toMatchObject({ ok: false, param: 'query.page' });
    expect(parseViewQuery('limit=25')).toMatchObject({ ok: false, param: 'query.limit' });
    expect(parseViewQuery('hack=1')).toMatchObject({ ok: false, param: 'query.hack' });
    expect(parseViewQuery('status=a&status=b')).toMatchObject({ ok: false, param: 'query.status' });
    expect(parseViewQuery('amountMin=9&amountMax=1')).toMatchObject({ ok: false, param: 'query.amountMin' });
    expect(parseViewQuery(`q=${'x'.repeat(3000)}`)).toMatchObject({ ok: false, param: 'query' });
  });
});

describe('opening a stored view (corrective)', () => {
  it('gives its state, rows per page and columns', () => {
    const opened = openViewState(view());
    expect(opened.state).toMatchObject({
      status: ['pending'],
      currency: ['NGN'],
      sort: 'createdAt',
      limit: 25,
      page: 1,
    });
    expect(opened.columns).toEqual(['reference', 'amount', 'status']);
    expect(opened.dropped).toEqual([]);
  });

  it('opens with what still applies and names what was dropped: a filter, a value, a column', () => {
    const opened = openViewState(
      view({ query: 'status=pending&region=west&sort=byName', columns: ['reference', 'colour' as never, 'status'] }),
    );
    expect(opened.state.status).toEqual(['pending']);
    expect(opened.state.sort).toBe('-createdAt');
    expect(opened.columns).toEqual(['reference', 'status']);
    expect(opened.dropped).toEqual(['region', 'sort', 'column colour']);
  });

  it('a rows-per-page the list no longer offers falls back to the default', () => {
    expect(openViewState(view({ limit: 1000 })).state.limit).toBe(10);
  });
});

describe('a view’s address and changes', () => {
  it('writes its id and whole state into the URL', () => {
    expect(viewUrl(view())).toBe('/collections?view=view_abc&limit=25&status=pending&currency=NGN&sort=createdAt');
    expect(viewUrl(view({ query: '', limit: 10 }))).toBe('/collections?view=view_abc');
  });

  it('the URL states the list when it holds any of its parameters', () => {
    expect(urlStatesList(new URLSearchParams('view=view_abc'))).toBe(false);
    expect(urlStatesList(new URLSearchParams('view=view_abc&page=2'))).toBe(true);
    expect(urlStatesList(new URLSearchParams('status=pending'))).toBe(true);
  });

  it('tells a list changed from its view: filters, rows per page, columns', () => {
    const saved = view();
    const state = openViewState(saved).state;
    expect(viewChanged(saved, state, saved.columns)).toBe(false);
    expect(viewChanged(saved, { ...state, page: 3 }, saved.columns)).toBe(false);
    expect(viewChanged(saved, { ...state, status: ['completed'] }, saved.columns)).toBe(true);
    expect(viewChanged(saved, { ...state, limit: 50 }, saved.columns)).toBe(true);
    expect(viewChanged(saved, state, ['amount', 'reference', 'status'])).toBe(true);
    expect(viewChanged(view({ query: '', limit: 10 }), defaults(listStateSchema), saved.columns)).toBe(false);
  });
});

describe('a view’s body (POST and PUT)', () => {
  it('a name: trimmed, 1 to 80 characters', () => {
    expect(nameProblem('  ')).toBe('name must not be empty');
    expect(nameProblem('x'.repeat(81))).toBe('name must be at most 80 characters');
    expect(nameProblem('On hold this week')).toBeNull();
    expect(nameProblem('On hold\u0000')).toBe('name must not hold control characters');
    expect(nameProblem('On\thold\nthis week')).toBeNull();
    const parsed = viewCreateBody.safeParse({ name: '  On  hold  ' });
    expect(parsed.success && parsed.data).toMatchObject({
      name: 'On hold',
      query: '',
      columns: [...DEFAULT_COLUMNS],
      limit: 10,
      shared: false,
    });
  });

  it('refuses each bad field by name', () => {
    const first = (body: unknown, schema: z.ZodType = viewCreateBody) => {
      const result = schema.safeParse(body);
      return result.success ? null : result.error.issues[0]!.message;
    };
    expect(first({})).toMatch(/^Invalid name/);
    expect(first({ name: '' })).toBe('Invalid name: name must not be empty');
    expect(first({ name: 'a', query: 'sort=nope' })).toMatch(/^Invalid query.sort/);
    expect(first({ name: 'a', columns: ['reference', 'nope'] })).toMatch(/^Invalid columns: nope/);
    expect(first({ name: 'a', columns: [] })).toMatch(/^Invalid columns/);
    expect(first({ name: 'a', limit: 30 })).toMatch(/^Invalid limit/);
    expect(first({ name: 'a', shared: 'yes' })).toMatch(/^Invalid shared/);
    expect(first({ name: 'a', owner: 'someone else' })).toMatch(/owner/);
    expect(first({}, viewUpdateBody)).toMatch(/at least one/);
    expect(first({ pinned: 1 }, viewUpdateBody)).toMatch(/^Invalid pinned/);
  });
});
