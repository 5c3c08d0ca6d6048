import http from 'node:http';
import https from 'node:https';

/**
 * Two GETs of `url` over one kept-alive connection, `idleMs` apart, as a load balancer reuses its idle connections
 * to a server: each answer's status, and whether the second went over the first's socket (the server had not
 * closed it meanwhile).
 */
export async function askedAgainAfterIdle(url: string, idleMs: number) {
  const client = url.startsWith('https:') ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
      const request = client.get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
      });
      request.on('error', reject);
    });
  try {
    const first = await get();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return { first, second: await get() };
  } finally {
    agent.destroy();
  }
}
