import { driftAcknowledgeBody } from '@/lib/api/inputs';
import { acknowledgeDrift, driftReport } from '@/lib/server/reads/drift';
import { apiRoute } from '@/lib/server/route';

/**
 * `GET /api/drift` (gated): fields and open-set values the upstream sends that the seed does not describe,
 * each marked `baseline` (first seen by the end of the first whole sync, or acknowledged) or new since.
 * `POST /api/drift` (admins): acknowledge one entry, which joins the baseline (audited).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/drift',
  subject: 'collections',
  read: (_input, context, rt) => driftReport(rt, context),
  write: {
    POST: {
      body: driftAcknowledgeBody,
      run: async ({ body }, context, rt) => ({ body: await acknowledgeDrift(rt, context, body) }),
    },
  },
});
