import 'server-only';
import { cache } from 'react';
import { requestContext } from './context';
import { runtime, type Runtime } from './runtime';

/**
 * The runtime as the page's account sees it (the account proxy.ts checked and the request's context names), one
 * per render. A request the gate refuses gets the first account's: the page's own read refuses it again.
 */
export const pageRuntime = cache(async (): Promise<Runtime> => {
  const context = await requestContext().catch(() => null);
  return runtime(context?.account);
});

/** The account a server-rendered link names: the page's with several accounts, none with one. */
export const linkAccount = (rt: Runtime): string | null => (rt.config.multiAccount ? rt.account.id : null);
