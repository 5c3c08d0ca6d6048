import { fileURLToPath } from 'node:url';

/**
 * The floor: a bare Next.js app of the same version, built and run beside the
 * dashboard by `npm run bench` (copied to .data/bench-floor with hard-linked
 * node_modules, so Turbopack treats it as a project of its own).
 */
const nextConfig = {
  poweredByHeader: false,
  turbopack: { root: fileURLToPath(new URL('.', import.meta.url)) },
};

export default nextConfig;
