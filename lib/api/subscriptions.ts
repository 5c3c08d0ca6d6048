import { z } from 'zod';
import { isViewId } from './views';

/**
 * E-mailed reports of saved views (contract section 17): a subscription's body as `POST /api/subscriptions`
 * takes it and the form sends it, what the API answers, and the words pages use for a schedule. No server
 * code: the form validates with the same schema the route does.
 */
export const EVERY = ['day', 'week', 'month'] as const;
export type Every = (typeof EVERY)[number];
export const SEND_WHEN = ['always', 'nonEmpty', 'above', 'changed'] as const;
export type SendWhen = (typeof SEND_WHEN)[number];
export const RECIPIENTS_MAX = 20;
/** ISO weekdays, Monday first (Luxon's and the body's `weekday`). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9_-]{1,64}$/;
export const isSubscriptionId = (value: unknown): value is string =>
  typeof value === 'string' && SUBSCRIPTION_ID.test(value);

/** Whether the runtime knows the zone (IANA names, as `Intl` reads them). */
export function isZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// One address as people write them: a local part, an @, a domain with a dot. The SMTP server has the last word.
const EMAIL =
  /^[^\s@<>(),;:"[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
export const isEmailAddress = (value: string) => value.length <= 254 && EMAIL.test(value);

const recipient = z
  .string('Invalid recipients: each recipient must be an e-mail address')
  .trim()
  .refine(isEmailAddress, { error: (issue) => `Invalid recipients: ${String(issue.input)} is not an e-mail address` })
  .transform((v) => v.toLowerCase());

const fields = {
  every: z.enum(EVERY, 'Invalid every: every must be day, week or month'),
  at: z
    .string('Invalid at: at must be a time as HH:MM')
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Invalid at: at must be a time from 00:00 to 23:59 (HH:MM)'),
  zone: z
    .string('Invalid zone: zone must be a time zone name, such as Europe/London')
    .refine(isZone, 'Invalid zone: zone must be a time zone name the server knows, such as Europe/London'),
  weekday: z
    .number('Invalid weekday: weekday must be a number from 1 (Monday) to 7 (Sunday)')
    .int('Invalid weekday: weekday must be a whole number from 1 (Monday) to 7 (Sunday)')
    .min(1, 'Invalid weekday: weekday must be from 1 (Monday) to 7 (Sunday)')
    .max(7, 'Invalid weekday: weekday must be from 1 (Monday) to 7 (Sunday)'),
  day: z
    .number('Invalid day: day must be a day of the month from 1 to 31')
    .int('Invalid day: day must be a whole number from 1 to 31')
    .min(1, 'Invalid day: day must be from 1 to 31')
    .max(31, 'Invalid day: day must be from 1 to 31 (a day past the end of a month sends on its last day)'),
  when: z.enum(SEND_WHEN, 'Invalid when: when must be always, nonEmpty, above or changed'),
  above: z
    .number('Invalid above: above must be a number of collections')
    .int('Invalid above: above must be a whole number of collections')
    .min(0, 'Invalid above: above must be 0 or more')
    .max(1_000_000_000, 'Invalid above: above must be at most 1,000,000,000'),
  recipients: z
    .array(recipient, 'Invalid recipients: recipients must be a list of e-mail addresses')
    .max(RECIPIENTS_MAX, `Invalid recipients: at most ${RECIPIENTS_MAX} recipients`)
    .transform((list) => [...new Set(list)]),
  attachCsv: z.boolean('Invalid attachCsv: attachCsv must be true or false'),
};

/** What a schedule needs beside `every`: a weekday for a week, a day for a month, a number for `above`. */
function completeness(body: Partial<SubscriptionBody>, ctx: z.RefinementCtx) {
  if (body.every === 'week' && body.weekday === undefined)
    ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'Invalid weekday: a weekly report needs its weekday' });
  if (body.every === 'month' && body.day === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['day'],
      message: 'Invalid day: a monthly report needs its day of the month',
    });
  if (body.when === 'above' && body.above === undefined)
    ctx.addIssue({ code: 'custom', path: ['above'], message: 'Invalid above: "above" needs the number to cross' });
}

/** `POST /api/subscriptions`. */
export const subscriptionBody = z
  .strictObject({
    viewId: z.string('Invalid viewId: viewId is required').refine(isViewId, 'Invalid viewId: not a view id'),
    every: fields.every,
    at: fields.at,
    zone: fields.zone,
    weekday: fields.weekday.optional(),
    day: fields.day.optional(),
    when: fields.when.default('always'),
    above: fields.above.optional(),
    recipients: fields.recipients.default([]),
    attachCsv: fields.attachCsv.default(false),
  })
  .superRefine(completeness);
export type SubscriptionBody = z.output<typeof subscriptionBody>;

/** `PUT /api/subscriptions/{id}`: any of the fields, and `paused` to pause or resume. */
export const subscriptionUpdateBody = z
  .strictObject({
    every: fields.every.optional(),
    at: fields.at.optional(),
    zone: fields.zone.optional(),
    weekday: fields.weekday.optional(),
    day: fields.day.optional(),
    when: fields.when.optional(),
    above: fields.above.optional(),
    recipients: fields.recipients.optional(),
    attachCsv: fields.attachCsv.optional(),
    paused: z.boolean('Invalid paused: paused must be true or false').optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Give at least one field to change');
export type SubscriptionUpdate = z.output<typeof subscriptionUpdateBody>;

export type Schedule = { every: Every; at: string; zone: string; weekday?: number; day?: number };

export type Subscription = {
  id: string;
  viewId: string;
  /** The view's name when it was last read (the list shows it; the view may since be renamed or gone). */
  viewName: string | null;
  owner: string;
  schedule: Schedule;
  when: SendWhen;
  above: number | null;
  recipients: string[];
  attachCsv: boolean;
  state: 'active' | 'paused';
  pausedReason: string | null;
  nextDue: string | null;
  createdAt: string;
  updatedAt: string;
};

export type DeliveryKind = 'report' | 'test' | 'alert';
export type DeliveryStatus = 'pending' | 'sent' | 'skipped' | 'failed';
export type Delivery = {
  kind: DeliveryKind;
  due: string;
  status: DeliveryStatus;
  sentAt: string | null;
  attempts: number;
  error?: string;
  /** Why a report was skipped, or what it held (`count`). */
  detail?: string;
};

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** "Every Monday at 09:00 (Europe/London)". */
export function scheduleText(schedule: Schedule): string {
  const at = `at ${schedule.at} (${schedule.zone})`;
  if (schedule.every === 'week') return `Every ${WEEKDAYS[(schedule.weekday ?? 1) - 1]} ${at}`;
  if (schedule.every === 'month')
    return `Every month on the ${ordinal(schedule.day ?? 1)}${(schedule.day ?? 1) > 28 ? ' (or its last day)' : ''} ${at}`;
  return `Every day ${at}`;
}

/** "only when it holds something". */
export function whenText(when: SendWhen, above: number | null): string {
  if (when === 'nonEmpty') return 'only when the view holds something';
  if (when === 'above') return `only when its count is above ${(above ?? 0).toLocaleString('en-GB')}`;
  if (when === 'changed') return 'only when collections entered or left it';
  return 'always';
}
