import { providerIdParams } from '@/lib/api/inputs';
import { viewProvider } from '@/lib/server/reads/records';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  route: '/api/providers/[id]',
  subject: 'provider',
  params: providerIdParams,
  read: ({ params }, context, rt) => viewProvider(rt, context, params.id),
});
