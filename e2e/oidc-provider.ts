/**
 * A real OpenID Provider for the sign-in tests: `oidc-provider` (a certified
 * implementation) on a loopback port, with its development login form (any
 * password; the login is the account) and consent granted up front. The
 * accounts are the people the tests sign in as; who may use the dashboard is
 * the dashboard's allow-list, not this list.
 */
import { createServer } from 'node:http';
// @ts-expect-error -- oidc-provider ships no types; the calls below are the documented ones.
import Provider from 'oidc-provider';
import { E2E } from './env';

export const OIDC_ACCOUNTS: Record<string, { name: string; email_verified: boolean }> = {
  'grace@example.com': { name: 'Grace Hopper', email_verified: true },
  // The header's widest case at 1280 px: a long name (cut with an ellipsis) and the longer role, Viewer.
  'grace.longname-for-the-header@example.com': { name: 'Grace Brewster Murray Hopper', email_verified: true },
  'admin@example.com': { name: 'Alan Admin', email_verified: true },
  'ada@partner.test': { name: 'Ada Lovelace', email_verified: true },
  'mallory@elsewhere.test': { name: 'Mallory', email_verified: true },
  'unverified@example.com': { name: 'Una Verified', email_verified: false },
};

type Ctx = {
  oidc: {
    provider: { Grant: new (init: object) => Grant };
    client: { clientId: string };
    session: { accountId: string };
  };
};
type Grant = { addOIDCScope(scope: string): void; addOIDCClaims(claims: string[]): void; save(): Promise<unknown> };

export function startOidcProvider(port = E2E.oidcProviderPort) {
  const provider = new Provider(`http://localhost:${port}`, {
    clients: [
      {
        client_id: E2E.oidc.clientId,
        client_secret: E2E.oidc.clientSecret,
        redirect_uris: [`${E2E.oidcURL}/auth/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['e2e-only-cookie-key-not-a-secret'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const account = OIDC_ACCOUNTS[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: id, ...account }) };
    },
    // Consent is not what these tests are about: grant the scopes the dashboard asks for.
    async loadExistingGrant(ctx: Ctx) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified', 'name']);
      await grant.save();
      return grant;
    },
  });
  const server = createServer(provider.callback());
  return new Promise<{ close: () => Promise<void> }>((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({ close: () => new Promise<void>((done) => server.close(() => done())) }),
    ),
  );
}
