import { upstreamList } from '../../upstream';

/** Returns the upstream's JSON body as fetched: the floor for the dashboard's proxy cost. */
export async function GET(request: Request) {
  const search = new URL(request.url).searchParams;
  const upstream = await upstreamList(search.get('page') ?? '1', search.get('limit') ?? '10');
  return new Response(await upstream.text(), {
    status: upstream.status,
    headers: { 'Content-Type': 'application/json' },
  });
}
