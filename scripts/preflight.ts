/**
 * `npm start`'s check before the server starts: the configuration as the server reads it (lib/server/env.ts)
 * and its access gate (lib/server/access.ts). A refusal or a bad variable is the last thing printed, before
 * any "Ready"; the server itself checks again at start (instrumentation.ts), for starts without npm.
 * Run with `tsx --conditions=react-server` (the modules are server-only).
 */
import { assertStartable } from '../lib/server/startup';

assertStartable({ quiet: true });
