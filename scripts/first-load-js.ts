import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';

/**
 * First-load JS of a page: the gzip bytes of every script the page really
 * loads on a cold visit (network responses of type script; `noModule`
 * scripts are never fetched by a modern browser, so they never count).
 * Shared by `npm run bench` and the CI budget spec.
 */
export async function firstLoadJs(
  browser: Browser,
  url: string,
  options: { httpCredentials?: { username: string; password: string } } = {},
) {
  const context = await browser.newContext({ httpCredentials: options.httpCredentials });
  const page = await context.newPage();
  const bodies = new Map<string, Promise<Buffer>>();
  const onResponse = (response: import('@playwright/test').Response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = response.body();
    // A script answered after the page went idle is not first-load JS and is never read: its body's read,
    // cut off when the context closes, must not fail the run (CI saw it once, as an unhandled rejection).
    body.catch(() => {});
    bodies.set(response.url(), body);
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const scripts = await Promise.all(
    [...bodies].map(async ([src, read]) => {
      const body = await read;
      return { src, body, bytes: body.length, gzip: gzipSync(body).length };
    }),
  );
  await context.close();
  return {
    gzip: scripts.reduce((sum, s) => sum + s.gzip, 0),
    raw: scripts.reduce((sum, s) => sum + s.bytes, 0),
    scripts,
  };
}
