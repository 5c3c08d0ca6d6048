import 'server-only';
import * as client from 'openid-client';
import type { ServerConfig } from '../env';

type Oidc = NonNullable<ServerConfig['oidc']>;

/**
 * The provider's configuration, discovered once per process from
 * `<OIDC_ISSUER>/.well-known/openid-configuration` (openid-client: the ID
 * token's issuer, audience, expiry and signature are checked against it, the
 * keys fetched from its JWKS). Plain http only for a provider on this machine
 * (tests); the settings refuse any other http issuer. A failed discovery is
 * not cached: the next sign-in tries again.
 */
let discovered: { issuer: string; config: Promise<client.Configuration> } | null = null;

export function providerConfig(oidc: Oidc): Promise<client.Configuration> {
  if (discovered?.issuer !== oidc.issuer) {
    const loopback = new URL(oidc.issuer).protocol === 'http:';
    const config = client.discovery(
      new URL(oidc.issuer),
      oidc.clientId,
      oidc.clientSecret,
      undefined,
      loopback ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    discovered = { issuer: oidc.issuer, config };
    config.catch(() => {
      if (discovered?.config === config) discovered = null;
    });
  }
  return discovered.config;
}

/** The sign-in transaction: what the callback must see again, kept in a sealed cookie meanwhile. */
export type Transaction = { state: string; nonce: string; verifier: string; returnTo: string };

export async function authorizationUrl(oidc: Oidc, returnTo: string): Promise<{ url: URL; transaction: Transaction }> {
  const config = await providerConfig(oidc);
  const verifier = client.randomPKCECodeVerifier();
  const transaction = { state: client.randomState(), nonce: client.randomNonce(), verifier, returnTo };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: oidc.redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: transaction.state,
    nonce: transaction.nonce,
  });
  return { url, transaction };
}

/**
 * Exchanges the code and validates everything (state, nonce, PKCE, the ID
 * token); returns who signed in. Providers that keep `email` and `name` out of
 * the ID token (the spec lets them, for the code flow) are asked at their
 * UserInfo endpoint, for the same subject. Throws on anything wrong.
 */
export async function completeSignIn(
  oidc: Oidc,
  callbackUrl: URL,
  transaction: Transaction,
): Promise<{ sub: string; email?: unknown; email_verified?: unknown; name?: unknown; groups?: unknown }> {
  const config = await providerConfig(oidc);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: transaction.verifier,
    expectedState: transaction.state,
    expectedNonce: transaction.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  // Groups (which an account's admins / viewers may name) are often only at UserInfo: asked there when absent.
  if (typeof claims.email === 'string' && (claims.groups !== undefined || !oidc.namedGroups.length)) return claims;
  const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { ...info, sub: claims.sub };
}

/** A provider's `groups` claim as names an account may list: strings only, at most 100 of at most 200 characters. */
export function groupsOf(claim: unknown): string[] {
  if (!Array.isArray(claim)) return [];
  return claim
    .filter((g): g is string => typeof g === 'string' && g.length > 0 && g.length <= 200 && !/[\u0000-\u001f]/.test(g))
    .slice(0, 100);
}

/** Where a signed-in page may send the user back to: a path of this app, never another origin. */
export function safeReturnTo(value: string | null): string {
  if (
    !value ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\') ||
    value.startsWith('/auth/')
  )
    return '/collections';
  return value.slice(0, 2000);
}
