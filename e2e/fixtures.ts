import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import type { Fixtures } from '../sandbox/fixtures';
import { E2E } from './env';

/**
 * Shared fixtures: the sandbox's own description of its data (ids are
 * discovered, never hard-coded) and an axe check that fails on serious or
 * critical violations.
 */
type SandboxData = Fixtures & { demo: Fixtures['accounts'][number]; other: Fixtures['accounts'][number] };

export const test = base.extend<{ axe: (page: Page) => Promise<void> }, { sandbox: SandboxData }>({
  sandbox: [
    async ({}, use) => {
      const fixtures = (await (await fetch(`${E2E.sandboxURL}/__sandbox/fixtures`)).json()) as Fixtures;
      const byId = (id: string) => fixtures.accounts.find((a) => a.id === id)!;
      await use({ ...fixtures, demo: byId('acc_demo'), other: byId('acc_other') });
    },
    { scope: 'worker' },
  ],
  axe: async ({}, use) => {
    await use(async (page) => {
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    });
  },
});

export { expect };
