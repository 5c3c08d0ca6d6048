import { afterEach, describe, expect, it } from 'vitest';
import { startSink, type Sink } from '@/scripts/smtp-sink';
import { parseConfig } from '../env';
import { createMailer, SendError, type Message } from './mailer';

const message = (over: Partial<Message> = {}): Message => ({
  kind: 'report',
  to: ['owner@example.com'],
  subject: 'Pending over a million: 3 collections',
  text: 'Three collections.\n\nUnsubscribe: http://localhost:3000/unsubscribe/t',
  html: '<p>Three collections.</p><p><a href="http://localhost:3000/unsubscribe/t">Unsubscribe</a></p>',
  headers: {
    'List-Unsubscribe': '<http://localhost:3000/unsubscribe/t>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  messageId: '<sub_a.1765100000000@collections-console>',
  attachments: [{ filename: 'pending.csv', content: 'reference,amount\nINV-1,100\n', contentType: 'text/csv' }],
  ...over,
});

const sinks: Sink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});
const sink = async (options: Parameters<typeof startSink>[0] = {}) => {
  const started = await startSink(options);
  sinks.push(started);
  return started;
};
const mail = (env: Record<string, string>, timeouts?: { connection: number; greeting: number; socket: number }) =>
  createMailer({
    config: parseConfig({ MAIL_FROM: 'Reports <reports@example.com>', ...env }).mail,
    keep: async () => {},
    tls: { rejectUnauthorized: false },
    timeoutsMs: timeouts,
  });

describe('the mailer, against a real SMTP server', () => {
  it('sends over STARTTLS with a password: headers, text, HTML and the attachment arrive', async () => {
    const server = await sink({ auth: { user: 'reports', password: 'p4ss word' } });
    const mailer = mail({ SMTP_URL: `smtp://reports:${encodeURIComponent('p4ss word')}@127.0.0.1:${server.port}` });
    await mailer.send(message());
    const [got] = await server.waitFor(1);
    mailer.close();
    expect(got!.subject).toBe('Pending over a million: 3 collections');
    expect(got!.from?.value[0]).toMatchObject({ name: 'Reports', address: 'reports@example.com' });
    expect(got!.messageId).toBe('<sub_a.1765100000000@collections-console>');
    const header = (key: string) => got!.headerLines.find((line) => line.key === key)?.line;
    expect(header('list-unsubscribe')).toBe('List-Unsubscribe: <http://localhost:3000/unsubscribe/t>');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(got!.text).toContain('Three collections.');
    expect(got!.html).toContain('<a href="http://localhost:3000/unsubscribe/t">Unsubscribe</a>');
    expect(got!.attachments[0]!.filename).toBe('pending.csv');
    expect(got!.attachments[0]!.content.toString()).toBe('reference,amount\nINV-1,100\n');
    expect(server.envelopes[0]).toEqual({ from: 'reports@example.com', to: ['owner@example.com'] });
  });

  it('takes the user and password from SMTP_USER and SMTP_PASSWORD too', async () => {
    const server = await sink({ auth: { user: 'u', password: 'secret-pw' } });
    const mailer = mail({ SMTP_URL: server.url, SMTP_USER: 'u', SMTP_PASSWORD: 'secret-pw' });
    await mailer.send(message({ attachments: [] }));
    expect((await server.waitFor(1)).length).toBe(1);
    mailer.close();
  });

  it('refuses to send in the clear to a server that offers no STARTTLS, when TLS is required', async () => {
    const server = await sink({ noStartTls: true });
    const mailer = mail({ SMTP_URL: server.url, SMTP_REQUIRE_TLS: 'true' });
    const error = await mailer.send(message()).catch((e: unknown) => e);
    mailer.close();
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).message).toMatch(/STARTTLS/i);
    expect(server.messages).toHaveLength(0);
  });

  it('says a wrong password is refused, and never repeats the password', async () => {
    const server = await sink({ auth: { user: 'u', password: 'right-one' } });
    const mailer = mail({ SMTP_URL: server.url, SMTP_USER: 'u', SMTP_PASSWORD: 'wrong-one' });
    const error = (await mailer.send(message()).catch((e: unknown) => e)) as SendError;
    mailer.close();
    expect(error).toBeInstanceOf(SendError);
    expect(error.code).toBe('EAUTH');
    expect(`${error.message} ${error.response}`).toContain('535');
    expect(`${error.message} ${error.response}`).not.toContain('wrong-one');
    expect(server.messages).toHaveLength(0);
  });

  it('fails a send the server drops, then sends the next; a slow server is waited for, a hung one is a timeout', async () => {
    const dropping = await sink({ dropOnData: 1 });
    const mailer = mail({ SMTP_URL: dropping.url });
    await expect(mailer.send(message())).rejects.toBeInstanceOf(SendError);
    await mailer.send(message({ subject: 'second' }));
    expect((await dropping.waitFor(1))[0]!.subject).toBe('second');
    mailer.close();

    const slow = await sink({ delayMs: 400 });
    const patient = mail({ SMTP_URL: slow.url });
    await patient.send(message());
    patient.close();
    const hurried = mail({ SMTP_URL: slow.url }, { connection: 2_000, greeting: 2_000, socket: 150 });
    const error = (await hurried.send(message()).catch((e: unknown) => e)) as SendError;
    hurried.close();
    expect(error).toBeInstanceOf(SendError);
    expect(error.code).toMatch(/ETIMEDOUT|ESOCKET|ECONNECTION/);
  });

  it('keeps mail on the sandbox without SMTP_URL, and refuses it with a real upstream', async () => {
    const kept: Message[] = [];
    const keeping = createMailer({ config: parseConfig({}).mail, keep: async (m) => void kept.push(m) });
    expect(keeping.mode).toBe('kept');
    await keeping.send(message());
    expect(kept).toHaveLength(1);
    const off = createMailer({
      config: parseConfig({ API_BASE_URL: 'https://api.example.com', API_KEY: 'k' }).mail,
      keep: async () => {},
    });
    expect(off.mode).toBe('off');
    await expect(off.send(message())).rejects.toThrow(/SMTP_URL/);
  });
});
