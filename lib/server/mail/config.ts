import 'server-only';
import { z } from 'zod';
import { isEmailAddress } from '@/lib/api/subscriptions';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

const addresses = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const list = (raw ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
    const bad = list.find((item) => !isEmailAddress(item));
    if (bad) ctx.addIssue({ code: 'custom', message: 'must be e-mail addresses separated by commas' });
    return list;
  });

/**
 * The mail settings (contract section 3, "Reports and alerts"), spread into the environment's schema. Values
 * are never echoed: a bad SMTP_URL is named, its password is not.
 */
export const MAIL_ENV = {
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .refine((v) => /^smtps?:$/.test(URL.parse(v)?.protocol ?? ''), 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  SMTP_REQUIRE_TLS: z.enum(['true', 'false', '1', '0', '']).optional(),
  MAIL_FROM: optionalText.pipe(
    z
      .string()
      .refine((v) => isEmailAddress(v.match(/<([^>]+)>\s*$/)?.[1] ?? v), 'must be an address, or "Name <address>"')
      .optional(),
  ),
  ALERTS_TO: addresses,
  ALERT_SYNC_STALE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  ALERT_UPSTREAM_ERROR_RATE: z.coerce.number().gt(0).max(1).default(0.2),
};

type MailEnv = z.output<z.ZodObject<typeof MAIL_ENV>>;

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * How mail leaves: through SMTP_URL (`smtp`); kept by the dashboard and shown on `/mail` on the sandbox
 * without one (`kept`); not at all with a real upstream and none (`off`: subscriptions are refused).
 */
export function mailConfig(env: MailEnv, sandbox: boolean, dashboardUrl: string | null) {
  const url = env.SMTP_URL ? new URL(env.SMTP_URL) : null;
  const host = url?.hostname ?? '';
  const requireTls =
    env.SMTP_REQUIRE_TLS === undefined || env.SMTP_REQUIRE_TLS === ''
      ? !LOOPBACK.includes(host)
      : env.SMTP_REQUIRE_TLS === 'true' || env.SMTP_REQUIRE_TLS === '1';
  const mode: 'smtp' | 'kept' | 'off' = url ? 'smtp' : sandbox ? 'kept' : 'off';
  return {
    mode,
    smtp: url
      ? {
          url: `${url.protocol}//${url.host}`,
          secure: url.protocol === 'smtps:',
          user: env.SMTP_USER ?? (url.username ? decodeURIComponent(url.username) : undefined),
          password: env.SMTP_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined),
          /** STARTTLS is required unless the server is on this machine (a relay beside the dashboard). */
          requireTls: url.protocol === 'smtp:' && requireTls,
        }
      : null,
    from:
      env.MAIL_FROM ?? `Collections Console <reports@${dashboardUrl ? new URL(dashboardUrl).hostname : 'localhost'}>`,
    alertsTo: env.ALERTS_TO,
    alerts: { syncStaleMinutes: env.ALERT_SYNC_STALE_MINUTES, upstreamErrorRate: env.ALERT_UPSTREAM_ERROR_RATE },
  };
}

export type MailConfig = ReturnType<typeof mailConfig>;
