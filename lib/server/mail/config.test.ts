import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../env';

const real = { API_BASE_URL: 'https://api.example.com', API_KEY: 'k' };

describe('the mail settings', () => {
  it('keeps mail on the sandbox, is off with a real upstream and no SMTP_URL, sends with one', () => {
    expect(parseConfig({}).mail.mode).toBe('kept');
    expect(parseConfig(real).mail.mode).toBe('off');
    const smtp = parseConfig({ ...real, SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com' }).mail;
    expect(smtp.mode).toBe('smtp');
    expect(smtp.smtp).toMatchObject({
      url: 'smtps://smtp.example.com',
      secure: true,
      user: 'mailer',
      password: 's3cret',
    });
  });

  it('requires STARTTLS off this machine unless told otherwise', () => {
    expect(parseConfig({ SMTP_URL: 'smtp://smtp.example.com:587' }).mail.smtp?.requireTls).toBe(true);
    expect(parseConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).mail.smtp?.requireTls).toBe(false);
    expect(parseConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_REQUIRE_TLS: 'true' }).mail.smtp?.requireTls).toBe(
      true,
    );
    expect(parseConfig({ SMTP_URL: 'smtp://smtp.example.com', SMTP_REQUIRE_TLS: 'false' }).mail.smtp?.requireTls).toBe(
      false,
    );
  });

  it('names a bad setting and never echoes its value', () => {
    const bad = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    const url = bad({ SMTP_URL: 'http://mailer:hunter22@smtp.example.com' });
    expect(url).toMatch(/^Invalid configuration: SMTP_URL must be an smtp/);
    expect(url).not.toContain('hunter22');
    expect(bad({ MAIL_FROM: 'not an address' })).toMatch(/MAIL_FROM/);
    expect(bad({ ALERTS_TO: 'ops@example.com, nobody' })).toMatch(/ALERTS_TO must be e-mail addresses/);
    expect(bad({ ALERT_UPSTREAM_ERROR_RATE: '2' })).toMatch(/ALERT_UPSTREAM_ERROR_RATE/);
    expect(bad({ ALERT_SYNC_STALE_MINUTES: '0' })).toMatch(/ALERT_SYNC_STALE_MINUTES/);
  });

  it('reads the alert rules, with their defaults', () => {
    expect(parseConfig({}).mail.alerts).toEqual({ syncStaleMinutes: 30, upstreamErrorRate: 0.2 });
    const set = parseConfig({
      ALERTS_TO: 'Ops@Example.com',
      ALERT_SYNC_STALE_MINUTES: '5',
      ALERT_UPSTREAM_ERROR_RATE: '0.5',
    });
    expect(set.mail.alertsTo).toEqual(['ops@example.com']);
    expect(set.mail.alerts).toEqual({ syncStaleMinutes: 5, upstreamErrorRate: 0.5 });
  });
});
