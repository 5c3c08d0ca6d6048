import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './error-codes';

export * from './error-codes';

/** The error envelope in zod, for tests and server-side checks (the browser uses error-codes). */
export const errorBodySchema = z.object({
  status: z.literal('error'),
  message: z.string(),
  code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  /** A refused record another of the user's accounts owns (several accounts). */
  ownerAccount: z.object({ id: z.string(), name: z.string() }).optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
