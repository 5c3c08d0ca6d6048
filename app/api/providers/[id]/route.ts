import { providerIdParams } from '@/lib/api/inputs';
import { getProvider } from '@/lib/server/data';
import { apiRoute } from '@/lib/server/route';

export const { GET, POST, PUT, PATCH, DELETE } = apiRoute({
  subject: 'provider',
  params: providerIdParams,
  read: ({ params }, context) => getProvider(context, params.id),
});
