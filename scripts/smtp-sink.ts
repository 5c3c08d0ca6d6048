/**
 * A real SMTP server for tests and the bench (smtp-server, with mailparser reading what arrives): STARTTLS
 * with a certificate made here (smtp-server's built-in one has expired), AUTH PLAIN/LOGIN when a user is
 * given, and the faults a mail server can have: STARTTLS not offered, a dropped connection, a slow answer.
 * `npm`-free CLI: `tsx scripts/smtp-sink.ts` listens on SMTP_SINK_PORT (2525) and prints each message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type Sink = {
  port: number;
  url: string;
  messages: ParsedMail[];
  envelopes: { from: string; to: string[] }[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
};

let certificate: { key: string; cert: string } | null = null;

function selfSigned() {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'smtp-sink-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost'].concat([
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    certificate = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startSink(
  options: {
    port?: number;
    auth?: { user: string; password: string };
    /** Offers no STARTTLS (a server a client requiring TLS must refuse). */
    noStartTls?: boolean;
    /** Drops the connection when the message is sent (the first `dropOnData` messages). */
    dropOnData?: number;
    /** Waits this long before answering each message. */
    delayMs?: number;
  } = {},
): Promise<Sink> {
  const messages: ParsedMail[] = [];
  const envelopes: Sink['envelopes'] = [];
  const waiters: (() => void)[] = [];
  let drops = options.dropOnData ?? 0;
  const { key, cert } = selfSigned();
  const server = new SMTPServer({
    key,
    cert,
    logger: false,
    disabledCommands: [...(options.noStartTls ? ['STARTTLS'] : []), ...(options.auth ? [] : ['AUTH'])],
    authOptional: !options.auth,
    allowInsecureAuth: false,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.password)
        return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      if (drops > 0) {
        drops--;
        stream.resume();
        // smtp-server has no "hang up" of its own: its connections' sockets, destroyed mid-message.
        const connections = (server as unknown as { connections: Set<{ _socket?: { destroy(): void } }> }).connections;
        for (const connection of connections) connection._socket?.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          const done = () => {
            messages.push(parsed);
            envelopes.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            });
            callback();
            waiters.splice(0).forEach((wake) => wake());
          };
          if (options.delayMs) setTimeout(done, options.delayMs);
          else done();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    envelopes,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`waited for ${count} messages, ${messages.length} arrived`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 100);
        });
      }
      return messages.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1]?.endsWith('smtp-sink.ts')) {
  const sink = await startSink({ port: Number(process.env.SMTP_SINK_PORT ?? 2525) });
  console.log(`SMTP sink on ${sink.url}`);
  setInterval(() => {
    for (const message of sink.messages.splice(0)) console.log(`${message.date?.toISOString()} ${message.subject}`);
  }, 500);
}
