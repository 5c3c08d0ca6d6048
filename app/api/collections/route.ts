import { errorMessage } from '@/lib/api/errors';
import { listParamsFromSearch } from '@/lib/api/params';
import { listCollections } from '@/lib/server/data';
import { fail, failFrom, json, notGet } from '@/lib/server/route';

export async function GET(request: Request) {
  const params = listParamsFromSearch(new URL(request.url).searchParams);
  if (!params.ok) return fail('bad_request', `${errorMessage('bad_request', 'collections')}: ${params.message}`);
  try {
    return json(await listCollections(params.value));
  } catch (error) {
    return failFrom(error, 'collections');
  }
}

export const { POST, PUT, PATCH, DELETE } = notGet;
