import { errorMessage } from '@/lib/api/errors';
import { isProviderId } from '@/lib/api/ids';
import { getProvider } from '@/lib/server/data';
import { fail, failFrom, json, notGet } from '@/lib/server/route';

export async function GET(_request: Request, ctx: RouteContext<'/api/providers/[id]'>) {
  const { id } = await ctx.params;
  if (!isProviderId(id)) return fail('bad_request', errorMessage('bad_request', 'provider'));
  try {
    return json(await getProvider(id));
  } catch (error) {
    return failFrom(error, 'provider');
  }
}

export const { POST, PUT, PATCH, DELETE } = notGet;
