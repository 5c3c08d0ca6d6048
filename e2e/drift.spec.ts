import { E2E } from './env';
import { expect, indexReady, signedIn, test } from './fixtures';

/**
 * Drift that means something (contract section 11), on the dashboard that signs people in with OpenID
 * Connect (admin@example.com its admin, grace@example.com a viewer): what the upstream sent by the end of the
 * first whole sync is the baseline, listed apart and folded; what came since is new, highlighted with when it
 * was first seen; an admin acknowledges a new entry (audited), which moves it to the baseline. No other test
 * opens pay_fault_unknown on this dashboard, so its values are first seen here, after the first sync.
 */
test.use({ baseURL: E2E.oidcURL });

type Entry = {
  kind: 'field' | 'value';
  path: string;
  value?: string;
  firstSeen: string;
  baseline: boolean;
  acknowledged?: { at: string; by: string };
};
type Report = { data: Entry[]; meta: { baselineAt: string | null } };

test('the drift report keeps the baseline apart from what is new; an admin acknowledges an entry, a viewer cannot', async ({
  browser,
  axe,
}) => {
  const admin = await signedIn(browser, 'admin@example.com');
  await indexReady(admin.request);
  expect((await admin.request.get('/api/collections/pay_fault_unknown')).status()).toBe(200);
  const report = async () => (await (await admin.request.get('/api/drift')).json()) as Report;
  const wallet = (r: Report) =>
    r.data.find((d) => d.path === 'collection.payable.methods' && d.value === 'crypto_wallet');

  // The first whole sync set the baseline; every entry not acknowledged is baseline by when it was first seen.
  const before = await report();
  expect(before.meta.baselineAt).toEqual(expect.any(String));
  for (const d of before.data) if (!d.acknowledged) expect(d.baseline).toBe(d.firstSeen <= before.meta.baselineAt!);
  expect(wallet(before)).toMatchObject({ kind: 'value', baseline: false });
  expect(wallet(before)!.acknowledged).toBeUndefined();

  // On /status the new entries come first, highlighted, each with Acknowledge for an admin.
  await admin.goto('/status');
  const section = admin.getByRole('region', { name: 'Schema drift', exact: true });
  const fresh = section.getByRole('region', { name: 'New schema drift' });
  await expect(fresh.getByRole('row').filter({ hasText: 'crypto_wallet' })).toHaveCount(1);
  await expect(fresh.getByRole('row').filter({ hasText: 'collection.riskScore' })).toHaveCount(1);
  await axe(admin);
  await admin.emulateMedia({ colorScheme: 'dark' });
  await axe(admin);
  await fresh.getByRole('button', { name: 'Acknowledge collection.payable.methods crypto_wallet' }).click();
  await expect(fresh.getByRole('row').filter({ hasText: 'crypto_wallet' })).toHaveCount(0);
  await expect(fresh.getByRole('row').filter({ hasText: 'collection.riskScore' })).toHaveCount(1);

  // It is in the baseline now, folded, with who acknowledged it.
  await section.getByText(/^Baseline: \d+ entr(y|ies)/).click();
  const baseline = section.getByRole('region', { name: 'Schema drift baseline' });
  await expect(baseline.getByRole('row').filter({ hasText: 'crypto_wallet' })).toContainText('admin@example.com');
  const after = wallet(await report())!;
  expect(after).toMatchObject({ baseline: true, acknowledged: { by: 'admin@example.com' } });

  // A viewer reads the report without the button; the API refuses her.
  const grace = await signedIn(browser, 'grace@example.com');
  await grace.goto('/status');
  await expect(grace.getByRole('region', { name: 'New schema drift' })).toBeVisible();
  await expect(grace.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);
  const refused = await grace.request.post('/api/drift', { data: { kind: 'field', path: 'collection.riskScore' } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'forbidden_role' });

  // Bad input names what is wrong; an entry the report does not hold is a 404.
  const bad = await admin.request.post('/api/drift', { data: { kind: 'value', path: 'collection.status' } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { message: string }).message).toContain('value');
  const unknown = await admin.request.post('/api/drift', { data: { kind: 'field', path: 'collection.notSent' } });
  expect(unknown.status()).toBe(404);

  // The audit log holds each acknowledgement, refusals too.
  type Audited = { user: string; action: string; target: string; outcome: string };
  await expect
    .poll(async () =>
      (
        (await (await admin.request.get('/api/audit?action=drift_acknowledge&limit=100')).json()) as { data: Audited[] }
      ).data
        .map((e) => `${e.user} ${e.target} ${e.outcome}`)
        .reverse(),
    )
    .toEqual([
      'admin@example.com collection.payable.methods=crypto_wallet ok',
      'grace@example.com collection.riskScore forbidden_role',
      'admin@example.com collection.notSent not_found',
    ]);
});
