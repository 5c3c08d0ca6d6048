/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The container image (Dockerfile) builds the standalone server: a folder with its own node_modules,
  // started with `node server.js`. `npm start` keeps `next start`, which standalone output does not serve.
  ...(process.env.NEXT_OUTPUT === 'standalone' ? { output: 'standalone' } : {}),
  // The image's smoke test (scripts/image-smoke.ts) builds beside the usual build, not over it.
  ...(process.env.NEXT_DIST_DIR ? { distDir: process.env.NEXT_DIST_DIR } : {}),
  // For /status: which build is running.
  env: { BUILD_TIME: new Date().toISOString() },
  reactStrictMode: true,
  // `npm start` builds without Next's type-check pass (scripts/start.mjs sets this): a newcomer's first start
  // waits for the build alone. `npm run build`, `npm test` and CI (npm run typecheck) keep the check.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === '1' },
  // pino and better-sqlite3 stay plain Node modules on the server, never bundled.
  // prom-client too: the proxy and the routes are bundled apart and must share one registry.
  serverExternalPackages: ['pino', 'pino-pretty', 'better-sqlite3', 'prom-client'],
  // forbidden(): a real HTTP 403 for another account's collection or provider.
  experimental: {
    authInterrupts: true,
  },
  // A backstop for the few /api answers Next gives without running a route (a method Node's parser or Next
  // refuses, such as PROPFIND or TRACE): the static security headers. Next applies these over a route's own,
  // so they are only the ones whose value never changes; the CSP with its nonce, the request id and
  // Cache-Control (no-transform on a download) come from each route (lib/server/route.ts).
  async headers() {
    return [
      {
        source: '/api/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          {
            key: 'Permissions-Policy',
            value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
          },
          { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
        ],
      },
    ];
  },
  async redirects() {
    return [{ source: '/', destination: '/collections', permanent: false }];
  },
};

export default nextConfig;
