import 'server-only';
import type { Generated } from 'kysely';

/**
 * The application's tables, as Kysely sees them: the search index's (every row
 * carries its account), the audit log's and the drift report's, each written by
 * its own room and all migrated here (migrations/). Dialect-neutral on purpose
 * (text timestamps in one ISO form, integers, text tokens), so the same queries
 * and migrations run on SQLite and PostgreSQL.
 */
/** index_meta's key of the drift report's baseline: when the dashboard's first whole sync ended (drift.ts). */
export const DRIFT_BASELINE_KEY = 'drift_baseline';

export type AppDatabase = {
  /**
   * The index's marks: the secret's check value, the roll-ups' version, the name-pair backfill's cursor;
   * and `drift_baseline`, when the first whole sync ended (the drift report's baseline, never emptied).
   */
  index_meta: { key: string; value: string };
  /** Schema drift (lib/server/observability/drift.ts): never emptied with the index. */
  drift: {
    kind: string;
    path: string;
    /** '' for a field. */
    value: string;
    count: number;
    first_seen: string;
    last_seen: string;
    example_id: string;
    /** When an admin acknowledged it (it joins the baseline), and who: null until then. */
    acknowledged_at: string | null;
    acknowledged_by: string | null;
  };
  /** Who saw what (lib/server/audit): append-only, never emptied with the index. */
  audit_entries: {
    id: Generated<number>;
    /** ISO 8601 UTC with milliseconds. */
    at: string;
    user: string;
    role: string;
    action: string;
    /** A record id, `overview`, or a search's keyed hash; null when the action has none. */
    target: string | null;
    /** JSON: what else the entry says (a search's kind and result count, an export's filters and rows). */
    detail: string | null;
    request_id: string;
    /** `ok`, or the error code the request ended with. */
    outcome: string;
    /** The account's id (migration 0029); null for entries written before, which belong to the first account. */
    account: string | null;
  };
  /** Saved views (lib/server/views): never emptied with the index. */
  saved_views: {
    id: string;
    /** The account's key (lib/server/views/account.ts). */
    account: string;
    owner: string;
    name: string;
    /** The name lower-cased: unique per owner. */
    name_key: string;
    query: string;
    columns: string;
    limit: number;
    /** 0 or 1. */
    shared: number;
    pinned: number | null;
    created_at: string;
    updated_at: string;
  };
  /** Each person's default view. */
  view_defaults: { account: string; owner: string; view_id: string };
  /** Notes on a collection or a contact (lib/server/annotations): never emptied with the index. */
  notes: {
    id: string;
    /** The account's key, as saved views'. */
    account: string;
    subject_kind: 'collection' | 'contact';
    subject_id: string;
    author: string;
    /** The text, AES-256-GCM (lib/server/seal.ts); null once deleted. */
    sealed: string | null;
    created_at: string;
    deleted_at: string | null;
    deleted_by: string | null;
  };
  /** An account's tag vocabulary. */
  tags: { account: string; name_key: string; name: string; colour: string; created_at: string; updated_at: string };
  /** Which collections hold which tag (`tag` is the tag's `name_key`). */
  collection_tags: { account: string; tag: string; id: string; tagged_at: string; tagged_by: string };
  /** Each tag put on (`tag_apply`) or taken off (`tag_remove`) a collection: the record's History. */
  tag_changes: { account: string; id: string; at: string; by: string; change: 'tag_apply' | 'tag_remove'; tag: string };
  /** A person's e-mailed report of a saved view (lib/server/mail): never emptied with the index. */
  subscriptions: {
    id: string;
    account: string;
    owner: string;
    role: 'admin' | 'viewer';
    owner_email: string | null;
    view_id: string;
    view_name: string | null;
    /** JSON: `{ every, at, zone, weekday?, day? }`. */
    schedule: string;
    send_when: 'always' | 'nonEmpty' | 'above' | 'changed';
    above: number | null;
    /** JSON: a list of addresses. */
    recipients: string;
    attach_csv: number;
    state: 'active' | 'paused' | 'ended';
    paused_reason: string | null;
    next_due: string | null;
    last_report_at: string | null;
    last_count: number | null;
    last_ids: string | null;
    created_at: string;
    updated_at: string;
  };
  /** Each report, test or alert and its due time, recorded before it is sent (the key makes it once). */
  deliveries: {
    subject: string;
    due: string;
    kind: 'report' | 'test' | 'alert';
    status: 'pending' | 'sent' | 'skipped' | 'failed';
    attempts: number;
    next_attempt_at: string | null;
    claimed_by: string | null;
    claimed_until: string | null;
    sent_at: string | null;
    error: string | null;
    detail: string | null;
  };
  /** Mail the sandbox kept instead of sending (no SMTP_URL), sealed: `/mail`. */
  mail_kept: { id: string; at: string; kind: string; sealed: string };
  /** Each alert condition's state per scope: mailed when it starts and when it clears. */
  alert_states: {
    condition: string;
    scope: string;
    active: number;
    since: string;
    last_mailed_at: string | null;
    detail: string | null;
  };
  /** A collection's changes as the sync and live reads saw them (search-index/history.ts). */
  collection_history: {
    account: number;
    id: string;
    /** When the change was first seen (ISO 8601 UTC). */
    seen_at: string;
    /** When the version before it was last seen. */
    not_seen_before: string;
    /** JSON: `[{ field, from, to }]`; a contact change has no values. */
    changes: string;
    /** The status before and after, when it changed (migration 0018); else null. */
    status_from: string | null;
    status_to: string | null;
  };
  /** Accounts by their non-reversible key (blind.ts `accountKey`); rows carry the small id. */
  accounts: {
    id: Generated<number>;
    key: string;
    /** What its contacts are sealed under, when not `key` (an account carried over from an older name). */
    seal_key: string | null;
    /** When a replica last opened it (ISO 8601 UTC): unopened for long, it is pruned. */
    opened_at: string | null;
  };
  /** Narrow rows: what filters, sorts and counts read. */
  collections: {
    account: number;
    id: string;
    /** The reference, NFKC and lower-cased: prefix search by range. */
    reference_key: string;
    status: string;
    amount_value: number;
    currency: string;
    /** ISO 8601 UTC with milliseconds (`toISOString()`), so text order is time order. */
    created_at: string;
    updated_at: string;
    /** As in the details, here too: the completion-date filter reads it from one partial index. */
    completed_at: string | null;
    /** When the upstream last showed this record (scan, poll or a live read). */
    seen_at: string;
  };
  /** What only a page of results shows. */
  collection_details: {
    account: number;
    id: string;
    reference: string;
    type: string;
    completed_at: string | null;
    line_item_count: number;
    /** JSON: `[{ currency, value }]`, quantity × amount per currency. */
    line_item_totals: string;
    /** AES-256-GCM: the contact's names, e-mail and phone, bound to (account key, id). */
    contact_sealed: string;
    /** JSON: the payable methods; null on rows written before migration 0009, until the sync writes them again. */
    methods: string | null;
    /** JSON: `{ enabled, channels }` of the follow-up settings; null as `methods`. */
    follow_up: string | null;
    /** JSON: what a change is told by beyond the other columns (search-index/history.ts); null before 0017. */
    snapshot: string | null;
  };
  contact_tokens: { account: number; kind: string; token: string; id: string };
  /** Tokens of a first scan's records, appended, until merged into `contact_tokens` (migration 0020). */
  contact_tokens_staged: { account: number; kind: string; token: string; id: string };
  /**
   * The forgiving forms of an account's name words, once per word (migration 0012): `kind` is `nameprefix`
   * or `namesound`, `token` the form's keyed token, `word` the `name` token of a word it forgives.
   */
  name_words: { account: number; kind: string; token: string; word: string };
  /**
   * PostgreSQL only (migration 0023, kept by triggers on `contact_tokens`): how many rows hold each `name`
   * token of an account.
   */
  name_counts: { account: number; token: string; n: number | string };
  sync_state: {
    account: number;
    /** The next list page the full scan reads (its checkpoint). */
    scan_page: number;
    scan_started_at: string | null;
    /** List pages that kept failing in this scan, retried before it completes (JSON array). */
    scan_missed: string;
    scans_completed: number;
    last_full_scan_at: string | null;
    last_poll_at: string | null;
    upstream_count: number | null;
    error_code: string | null;
    error_at: string | null;
  };
  sync_lease: { account: number; owner: string; expires_at: number };
  /**
   * Counts and sums per currency and status (rollups.ts): grain `d` by day (`YYYY-MM-DD`), `m` by month
   * (`YYYY-MM`), `y` by year (`YYYY`), `a` the whole account (period `''`). `created_*` count a record in the period of its
   * `createdAt`, `completed_*` in the period of its `completedAt`.
   */
  rollups: {
    account: number;
    grain: 'd' | 'm' | 'y' | 'a';
    period: string;
    currency: string;
    status: string;
    created_count: number;
    created_amount: number;
    /** Of the records created in the period, those completed since. */
    created_completed: number;
    completed_count: number;
    completed_amount: number;
  };
  /** Time from created to completed, as a histogram (rollups.ts `durationBucket`), by completion period. */
  rollup_durations: {
    account: number;
    grain: 'd' | 'm' | 'y' | 'a';
    period: string;
    currency: string;
    bucket: number;
    count: number;
  };
};
