/**
 * `npm run screenshots -- <dashboard URL> <out dir> [prefix]`: every page at a
 * desktop (1280 × 800) and a phone (390 × 844) viewport, in light and dark, as
 * PNG files `<prefix><page>-<width>-<theme>.png`. For looking at the pages as
 * users do, before and after a change to how they look (docs/screenshots/).
 * The dashboard must run against the sandbox (its fixtures name the records).
 */
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

const [base = 'http://127.0.0.1:3000', out = '.data/screenshots', prefix = ''] = process.argv.slice(2);
const sandboxPort = process.env.SANDBOX_PORT ?? '4010';

type Fixtures = {
  accounts: {
    providers: string[];
    examples: Record<string, string | null>;
    contacts: Record<string, { email: string }>;
  }[];
};
const demo = ((await (await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/fixtures`)).json()) as Fixtures)
  .accounts[0]!;
const email = Object.values(demo.contacts)[0]!.email;

const PAGES: [string, string][] = [
  ['list', '/collections'],
  ['detail', `/collections/${demo.examples.multipleLineItems}`],
  ['provider', `/providers/${demo.providers[0]}`],
  ['overview', '/overview?range=30d'],
  ['search', `/search?q=${encodeURIComponent(email.split('@')[1]!)}`],
  ['lookup', '/lookup'],
];
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

mkdirSync(out, { recursive: true });
const executablePath = chromiumPath();
const browser = await chromium.launch({ executablePath, args: executablePath ? CHROMIUM_ARGS : [] });
for (const viewport of VIEWPORTS)
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const [name, path] of PAGES) {
      await page.goto(base + path, { waitUntil: 'networkidle' });
      const file = join(out, `${prefix}${name}-${viewport.width}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      console.log(file);
    }
    await context.close();
  }
await browser.close();
