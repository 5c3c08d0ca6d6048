import { z } from 'zod';

/**
 * The seed's resources in zod, shared by the server, the browser's types and
 * the sandbox. Structure is strict (a string amount, a missing contact fail);
 * enumerated-looking fields are open strings, and every object is loose so
 * fields this version does not know survive into the raw JSON view.
 */

const timestamp = z.iso.datetime({ offset: true, local: false });

export const amountSchema = z.looseObject({
  value: z.number().int(),
  currency: z.string().min(1),
});

export const contactSchema = z.looseObject({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  email: z.string(),
});

export const payableSchema = z.looseObject({
  enabled: z.boolean(),
  methods: z.array(z.string()),
  options: z.array(z.unknown()),
});

export const followUpSchema = z.looseObject({
  enabled: z.boolean(),
  startAfter: z.number(),
  cadence: z.string(),
  channels: z.array(z.string()),
  tone: z.string(),
});

export const lineItemSchema = z.looseObject({
  name: z.string(),
  amount: amountSchema,
  description: z.string(),
  quantity: z.number().int(),
});

export const collectionSchema = z.looseObject({
  id: z.string().startsWith('pay_'),
  type: z.string(),
  contact: contactSchema,
  reference: z.string(),
  amount: amountSchema,
  status: z.string(),
  expiresIn: z.number(),
  payable: payableSchema,
  followUp: followUpSchema,
  metadata: z.array(lineItemSchema),
  events: z.array(z.unknown()),
  createdAt: timestamp,
  updatedAt: timestamp,
  completedAt: timestamp.nullable(),
});

export const providerSchema = z.looseObject({
  id: z.string().startsWith('prv_'),
  name: z.string(),
  slug: z.string(),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const listMetaSchema = z.looseObject({
  count: z.number().int().nonnegative(),
  next: z.number().int().positive().nullable(),
  prev: z.number().int().positive().nullable(),
});

export type Amount = z.infer<typeof amountSchema>;
export type Contact = z.infer<typeof contactSchema>;
export type Payable = z.infer<typeof payableSchema>;
export type FollowUp = z.infer<typeof followUpSchema>;
export type LineItem = z.infer<typeof lineItemSchema>;
export type Collection = z.infer<typeof collectionSchema>;
export type Provider = z.infer<typeof providerSchema>;
export type ListMeta = z.infer<typeof listMetaSchema>;
