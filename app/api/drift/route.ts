import { assertContext } from '@/lib/server/context';
import { apiRoute } from '@/lib/server/route';
import { runtime } from '@/lib/server/runtime';

/** `GET /api/drift` (gated): fields and open-set values the upstream sends that the seed does not describe. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/drift',
  subject: 'collections',
  read: async (_input, context) => {
    assertContext(context);
    return { status: 'success', message: 'Schema drift', data: await runtime().drift.report() };
  },
});
