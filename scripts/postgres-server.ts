/**
 * A real, throwaway PostgreSQL server for the e2e tests and the benchmarks: a fresh cluster in a temp dir,
 * listening on 127.0.0.1 only with trust auth, gone again after `stop()`. Imported by Playwright specs and
 * `tsx` scripts; run directly (`tsx scripts/postgres-server.ts --port 5544`) it serves until Ctrl-C.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, realpathSync } from 'node:fs';
import { chown, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';

/**
 * A server sized as an operator would size a dedicated one on this machine's 24 GiB (a quarter for
 * buffers, room to sort and build indexes, checkpoints spread out): the benchmarks' and the soak's.
 */
export const SIZED_SETTINGS: Record<string, string> = {
  shared_buffers: '4GB',
  effective_cache_size: '12GB',
  work_mem: '32MB',
  maintenance_work_mem: '1GB',
  max_wal_size: '8GB',
  checkpoint_timeout: '15min',
  random_page_cost: '1.1',
};

export type PostgresServer = {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the server fast (clients cut off) and starts it again on the same data: a failover, or a restart. */
  restart(): Promise<void>;
};

type Binaries = { initdb: string; pgCtl: string; postgres: string };

const run = promisify(execFile);
const START_TIMEOUT_S = 60;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const binariesIn = (dir: string): Binaries | null => {
  const found = { initdb: join(dir, 'initdb'), pgCtl: join(dir, 'pg_ctl'), postgres: join(dir, 'postgres') };
  return Object.values(found).every(isExecutable) ? found : null;
};

/** Where the binaries are, or null when PostgreSQL is not installed. */
export function postgresBinaries(): Binaries | null {
  const candidates: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const initdb = join(dir, 'initdb');
    if (!isExecutable(initdb)) continue;
    // A symlinked initdb (e.g. /usr/local/bin) may not have pg_ctl and postgres next to it; its target dir does.
    candidates.push(dir, dirname(realpathSync(initdb)));
  }
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debianRoot, version, 'bin')));
  }
  for (const dir of candidates) {
    const found = binariesIn(dir);
    if (found) return found;
  }
  return null;
}

const findOnPath = (name: string, extra: string[] = []) =>
  [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extra]
    .map((dir) => join(dir, name))
    .find(isExecutable);

/** For `/bin/sh`: pg_ctl hands its `-o` options to a shell, and `su -c` needs one command line. */
const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * PostgreSQL refuses to run as root, so root runs the binaries as the `postgres` system user. The caller's PG*
 * variables (PGDATA, PGPORT, …) would silently change what pg_ctl and initdb do, so they are left out.
 */
function serverUser() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('PG') || name.startsWith('LC_')) delete env[name];
  }
  Object.assign(env, { LC_ALL: 'C', LANG: 'C' });
  // The caller's cwd may be unreadable by `postgres` (e.g. under /root), which the binaries complain about.
  const options = { env, cwd: '/', maxBuffer: 16 * 1024 * 1024 };
  const isRoot = process.getuid?.() === 0;
  const runuser = isRoot ? findOnPath('runuser', ['/usr/sbin', '/sbin']) : undefined;
  const exec = (file: string, args: string[], timeoutMs: number) => {
    const timed = { ...options, timeout: timeoutMs, killSignal: 'SIGKILL' as const };
    if (!isRoot) return run(file, args, timed);
    if (runuser) return run(runuser, ['-u', 'postgres', '--', file, ...args], timed);
    return run('su', ['postgres', '-s', '/bin/sh', '-c', [file, ...args].map(shellQuote).join(' ')], timed);
  };
  return { isRoot, exec };
}

async function postgresOwner() {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    throw new Error('Running as root, but there is no `postgres` system user to run PostgreSQL as.');
  }
}

/** The output of a failed child process, without Node's "Command failed: <whole command line>" preamble. */
function outputOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message?: string };
    const output = [stderr, stdout].filter((text) => text?.trim()).join('\n');
    return output || (message ?? String(error));
  }
  return String(error);
}

async function logTail(dataDir: string, lines = 30): Promise<string> {
  const log = await readFile(join(dataDir, 'server.log'), 'utf8').catch(() => '(no server log)');
  return log.trimEnd().split('\n').slice(-lines).join('\n');
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });

/** True when `pid` still is the postmaster of `dataDir`: a crashed run's pid may since belong to anything. */
async function isPostmasterOf(pid: number, dataDir: string): Promise<boolean> {
  if (existsSync('/proc/self')) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    return cmdline.split('\0').includes(dataDir);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A crashed run leaves its server running on the port and its dir in tmpdir: end both. */
async function removeStale(port: number, pgCtl: string, user: ReturnType<typeof serverUser>) {
  const prefix = `cc-pg-${port}-`;
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.startsWith(prefix))) {
    const dataDir = join(tmpdir(), name);
    const pidFile = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
    const pid = Number(pidFile.split('\n')[0]);
    if (pid > 0 && (await isPostmasterOf(pid, dataDir))) {
      await user.exec(pgCtl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], 40_000).catch(() => {});
    }
    await rm(dataDir, { recursive: true, force: true }).catch(() => {});
  }
}

/** `pg_ctl -w` already waits for "ready"; this proves a real client gets through over TCP. */
async function connectWhenReady(port: number, timeoutMs: number): Promise<pg.Client> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
      ssl: false,
      connectionTimeoutMillis: 2_000,
    });
    // Without a listener, a server going away mid-session would crash the process with an unhandled 'error'.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * initdb a fresh cluster in a new temp dir, start it on 127.0.0.1:<port> with trust auth, create the database
 * and return its url (postgres://postgres@127.0.0.1:<port>/<database>). One server per port: a server left on
 * the port by an earlier run of this module is stopped first. `settings` become `-c name=value` server options;
 * `fsync` is off unless given, and `port`, `listen_addresses` and `unix_socket_directories` are not the caller's.
 */
export async function startPostgres(options: {
  port: number;
  database?: string;
  settings?: Record<string, string>;
}): Promise<PostgresServer> {
  const { port } = options;
  const database = options.database ?? 'console';
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`Invalid port: ${port}`);
  const binaries = postgresBinaries();
  if (!binaries) throw new Error('PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin.');
  const settings: Record<string, string> = {
    fsync: 'off',
    ...options.settings,
    port: String(port),
    listen_addresses: '127.0.0.1',
    // No unix socket: nothing needs it, and a long tmpdir path can exceed the socket path limit.
    unix_socket_directories: '',
  };
  for (const name of Object.keys(settings)) {
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) throw new Error(`Invalid PostgreSQL setting name: ${name}`);
  }

  const user = serverUser();
  await removeStale(port, binaries.pgCtl, user);
  if (!(await portFree(port))) throw new Error(`Port ${port} on 127.0.0.1 is in use by another process.`);

  const dataDir = await mkdtemp(join(tmpdir(), `cc-pg-${port}-`));
  const { pgCtl } = binaries;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await user
        .exec(pgCtl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], 70_000)
        .catch(() => user.exec(pgCtl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], 40_000))
        // Already down (or never up): removing the dir is all that is left.
        .catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    })());

  try {
    if (user.isRoot) {
      const owner = await postgresOwner();
      await chown(dataDir, owner.uid, owner.gid);
    }
    await user
      .exec(
        binaries.initdb,
        // --no-locale: the machine's locale may not be installed; --no-sync: the data is thrown away anyway.
        ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-locale', '--encoding=UTF8', '--no-sync'],
        120_000,
      )
      .catch((error: unknown) => {
        const hint = user.isRoot
          ? ' (as root, the `postgres` user must be able to reach the temp dir; see TMPDIR)'
          : '';
        throw new Error(`initdb failed in ${dataDir}${hint}:\n${outputOf(error)}`);
      });
    const serverOptions = Object.entries(settings)
      .map(([name, value]) => `-c ${shellQuote(`${name}=${value}`)}`)
      .join(' ');
    await user
      .exec(
        pgCtl,
        [
          'start',
          '-D',
          dataDir,
          '-l',
          join(dataDir, 'server.log'),
          '-p',
          binaries.postgres,
          '-o',
          serverOptions,
          '-w',
          '-t',
          String(START_TIMEOUT_S),
        ],
        (START_TIMEOUT_S + 10) * 1000,
      )
      .catch(async (error: unknown) => {
        const log = await logTail(dataDir);
        throw new Error(
          `PostgreSQL did not start on port ${port}: ${outputOf(error).trim()}\n--- server.log ---\n${log}`,
        );
      });

    const client = await connectWhenReady(port, START_TIMEOUT_S * 1000);
    try {
      if (database !== 'postgres') await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end().catch(() => {});
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    port,
    dataDir,
    stop,
    async restart() {
      // `-l` as at the start: without it the new server writes to pg_ctl's pipes and holds them open, and the
      // exec waited for them until its timeout (the soak's restart "took" 90 s of a few).
      await user.exec(
        pgCtl,
        [
          'restart',
          '-D',
          dataDir,
          '-l',
          join(dataDir, 'server.log'),
          '-m',
          'fast',
          '-w',
          '-t',
          String(START_TIMEOUT_S),
        ],
        90_000,
      );
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '5544' },
      database: { type: 'string' },
      set: { type: 'string', multiple: true },
    },
  });
  const settings: Record<string, string> = {};
  for (const pair of values.set ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--set wants name=value, got: ${pair}`);
    settings[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const started = Date.now();
  const server = await startPostgres({ port: Number(values.port), database: values.database, settings });
  console.log(server.url);
  console.error(`PostgreSQL up in ${Date.now() - started} ms, data in ${server.dataDir}; Ctrl-C stops it.`);
  // Signal handlers alone do not keep Node running.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const shutdown = () => {
    clearInterval(keepAlive);
    void server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
