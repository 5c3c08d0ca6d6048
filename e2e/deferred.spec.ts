import type { Page, Route } from '@playwright/test';
import { expect, expectHydrated, test } from './fixtures';

/**
 * The shell's deferred controls (Export CSV, Display, the index indicator): their buttons are drawn at once
 * and their code loads at first use. However the code's arrival falls against the user's press, a press
 * opens the control: before the press, during it (between press and release, where a click would reach
 * neither button), and after the release.
 */

/** Holds every script asked for from now on until `release()` (the deferred control's chunk among them). */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let open = false;
  await page.route('**/_next/static/chunks/**', (route) => (open ? route.continue() : void held.push(route)));
  return {
    release: async () => {
      open = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

const CONTROLS = [
  { name: 'Export CSV', opened: (page: Page) => page.getByRole('checkbox', { name: /Read live from the API/ }) },
  { name: 'Display', opened: (page: Page) => page.getByRole('radio', { name: 'Compact' }) },
  { name: /^Search index: /, opened: (page: Page) => page.getByText('Last full scan') },
] as const;

for (const control of CONTROLS) {
  test.describe(`the deferred control ${String(control.name)}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.goto('/collections');
      await expectHydrated(page.getByRole('button', { name: 'Next page' }));
    });

    test('opens when its code arrives between the press and the release', async ({ page }) => {
      const scripts = await holdScripts(page);
      const button = page.getByRole('button', { name: control.name });
      const box = (await button.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await scripts.release();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await page.mouse.up();
      await expect(control.opened(page)).toBeVisible();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
    });

    test('opens when its code arrives after the click', async ({ page }) => {
      const scripts = await holdScripts(page);
      const button = page.getByRole('button', { name: control.name });
      await button.click();
      await scripts.release();
      await expect(control.opened(page)).toBeVisible();
      await expect(button).toHaveAttribute('aria-expanded', 'true');
    });

    test('opens from the keyboard, and keeps the focus when its code takes the button’s place', async ({ page }) => {
      const button = page.getByRole('button', { name: control.name });
      await button.focus();
      // Focus alone starts loading the code; Enter opens the control whether it has arrived yet or not.
      await expect(button).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(control.opened(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(button).toBeFocused();
    });
  });
}
