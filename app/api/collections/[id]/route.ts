import { errorMessage } from '@/lib/api/errors';
import { isCollectionId } from '@/lib/api/ids';
import { getCollection } from '@/lib/server/data';
import { fail, failFrom, json, notGet } from '@/lib/server/route';

export async function GET(_request: Request, ctx: RouteContext<'/api/collections/[id]'>) {
  const { id } = await ctx.params;
  if (!isCollectionId(id)) return fail('bad_request', errorMessage('bad_request', 'collection'));
  try {
    return json(await getCollection(id));
  } catch (error) {
    return failFrom(error, 'collection');
  }
}

export const { POST, PUT, PATCH, DELETE } = notGet;
