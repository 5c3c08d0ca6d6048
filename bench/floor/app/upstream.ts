/** The same upstream call the dashboard makes, with nothing around it. */
export function upstreamList(page: string, limit: string) {
  const port = process.env.SANDBOX_PORT ?? '4010';
  return fetch(`http://127.0.0.1:${port}/public/collections?page=${page}&limit=${limit}`, {
    headers: { Authorization: 'Bearer sk_sandbox_demo' },
    cache: 'no-store',
  });
}
