import 'server-only';
import { startupRefusal } from './access';
import { ConfigError, getConfig } from './env';
import { logger } from './logger';

/** Validates the configuration at start; exits with the first problem named. */
export function assertStartable(options: { quiet?: boolean } = {}) {
  try {
    const config = getConfig();
    const refusal = startupRefusal(config);
    if (refusal) {
      console.error(`\n${refusal}\n`);
      process.exit(1);
    }
    if (!options.quiet)
      logger.info(
        {
          sandbox: config.upstream.sandbox,
          timeoutMs: config.upstream.timeoutMs,
          // Ids and modes only: a key never reaches a log.
          accounts: config.accounts.map((a) => `${a.id} (${a.mode})`),
        },
        'configuration ok',
      );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`\n${error.message}\n(see .env.example)\n`);
    process.exit(1);
  }
}
