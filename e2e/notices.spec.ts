import { expect, test } from './fixtures';

/**
 * Nothing dropped in silence (issue 75): a value the list corrects or drops is named in a notice that says
 * why, once; a search over the API's 200 characters says it is too long and keeps the text.
 */
test('a hand-typed list URL: each value dropped or corrected is named, with why, then forgotten', async ({
  page,
  axe,
}) => {
  await page.goto('/collections?amountMin=lots&sort=bogus&createdFrom=2026-13-45&status=pending');
  await expect(page).toHaveURL((url) => [...url.searchParams.keys()].sort().join() === 'limit,page,status');
  const notice = page.getByRole('status', { name: 'The address was corrected' });
  await expect(notice.getByRole('listitem')).toHaveText([
    'createdFrom “2026-13-45” is not a date that exists (YYYY-MM-DD); left out',
    'amountMin “lots” is not an amount; left out',
    'sort “bogus” is not a sort; newest first shown',
  ]);
  // What it kept still applies.
  await expect(page.getByRole('region', { name: 'Collections table' }).getByRole('row').nth(1)).toContainText(
    'Pending',
  );
  await axe(page);
  // Said once: the same page again (a reload, a shared link) has nothing to correct and says nothing.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Collections' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});

test('a range the wrong way round is turned and says so', async ({ page }) => {
  await page.goto('/collections?amountMin=50000&amountMax=100');
  await expect(page).toHaveURL((url) => url.searchParams.get('amountMin') === '100');
  await expect(page.getByRole('status', { name: 'The address was corrected' })).toHaveText(
    /amountMin was after amountMax; the two are swapped/,
  );
});

test('a search over 200 characters says it is too long and keeps the text to shorten', async ({ page }) => {
  const long = `Grace Abdulahi ${'paid twice, please check '.repeat(12)}`.slice(0, 301);
  await page.goto(`/search?${new URLSearchParams({ q: long })}`);
  await expect(page.getByRole('status').filter({ hasText: 'too long' })).toContainText(
    'That search is too long: 301 characters, and a search takes at most 200.',
  );
  await expect(page.getByText('Search for a collection')).toHaveCount(0);
  const box = page.getByRole('textbox', { name: 'Your search, to shorten' });
  await expect(box).toHaveValue(long);
  await box.fill('Grace Abdulahi');
  await page.getByRole('button', { name: 'Search again' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'Grace Abdulahi');
  await expect(page.getByText(/Results for/)).toBeVisible();
});

test('a status the data does not hold is answered with what it is called here', async ({ page, axe }) => {
  await page.goto('/collections?status=paid');
  const hint = page.getByRole('status', { name: 'Statuses here' });
  await expect(hint).toContainText('No collection here has the status “paid”. Paid is called Completed here:');
  await axe(page);
  await hint.getByRole('link', { name: /^Completed \(\d+\)$/ }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get('status') === 'completed');
  await expect(page.getByRole('region', { name: 'Collections table' }).getByRole('row').nth(1)).toContainText(
    'Completed',
  );
  await expect(hint).toHaveCount(0);

  // A word of no status meaning: the statuses there are.
  await page.goto('/collections?status=zzz');
  await expect(hint).toContainText('The statuses here:');
  await expect(hint.getByRole('link', { name: /^Pending \(\d+\)$/ })).toBeVisible();
});

test('a search for a status word offers the status filter', async ({ page }) => {
  const words: [string, string][] = [
    ['paid', 'Completed'],
    ['pending', 'Pending'],
  ];
  for (const [word, status] of words) {
    await page.goto(`/search?q=${word}`);
    const offer = page.getByRole('status', { name: 'Filter by status' });
    await offer.getByRole('link', { name: new RegExp(`^${status} collections \\(\\d+\\)$`) }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('status') === status.toLowerCase());
  }
});
