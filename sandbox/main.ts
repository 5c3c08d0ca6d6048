import { openDatabase } from './db';
import { sandboxConfig } from './config';
import { createSandbox } from './server';

/** `npm run sandbox`: the embedded upstream on its own, on 127.0.0.1. */
let config: ReturnType<typeof sandboxConfig>;
try {
  config = sandboxConfig();
} catch (error) {
  console.error(`[sandbox] ${(error as Error).message}`);
  process.exit(1);
}
// Writable only when the data changes: activity mode, or the test routes that come with faults.
const db = openDatabase(config.dbPath, {
  writable: config.activityMs > 0 || config.faults,
  testRows: config.testRows,
});
const server = createSandbox({
  db,
  faults: config.faults,
  slowMs: config.slowMs,
  delayMs: config.delayMs,
  activityMs: config.activityMs,
});

server.on('error', (err: NodeJS.ErrnoException) => {
  console.error(
    `[sandbox] cannot listen on ${config.host}:${config.port}: ${err.code === 'EADDRINUSE' ? 'the port is in use (set SANDBOX_PORT)' : err.message}`,
  );
  process.exit(1);
});
server.listen(config.port, config.host, () => {
  console.log(
    `[sandbox] upstream API on http://${config.host}:${config.port}  (keys: sk_sandbox_demo, sk_sandbox_other; ids: /__sandbox/fixtures${config.faults ? '; faults ON' : ''}${config.activityMs ? `; activity every ${config.activityMs} ms` : ''})`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    db.close();
    process.exit(0);
  });
}
