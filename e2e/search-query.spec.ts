import { expect, expectHydrated, indexReady, test } from './fixtures';

/**
 * The query stays (issue 75): on the results page the Search box holds what was searched, so narrowing a
 * search is one edit; Enter keeps focus in the box and the results are announced to screen readers.
 */
test.beforeEach(async ({ request }) => indexReady(request));

test('the results page keeps the query in the box, Enter keeps focus there, and the count is announced', async ({
  page,
  sandbox,
}) => {
  const [, person] = Object.entries(sandbox.demo.contacts)[0]!;
  const box = page.getByRole('combobox', { name: 'Search' });
  await page.goto(`/search?${new URLSearchParams({ q: person.lastName })}`);
  await expectHydrated(box);
  await expect(box).toHaveValue(person.lastName);

  // Narrowed by typing in front of what is there.
  await box.focus();
  await box.press('Home');
  await box.pressSequentially(`${person.firstName} `);
  await box.press('Enter');
  const narrowed = `${person.firstName} ${person.lastName}`;
  await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === narrowed);
  // Exactly: the announcer's "2 results for …" holds the same words once it has spoken.
  await expect(page.getByText(`Results for “${narrowed}”`, { exact: true })).toBeVisible();
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(narrowed);
  await expect(page.locator('#page-announcer')).toHaveText(new RegExp(`^\\d+ results? for “${narrowed}”$`));
  await expect(page.locator('#page-announcer')).toHaveAttribute('role', 'status');

  // Back: the box follows the page; another page: it starts empty.
  await page.goBack();
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === person.lastName);
  await expect(box).toHaveValue(person.lastName);
  await page.getByRole('link', { name: 'Collections', exact: true }).first().click();
  await expect(page).toHaveURL((url) => url.pathname === '/collections');
  await expect(box).toHaveValue('');
});
