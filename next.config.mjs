/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // For /status: which build is running.
  env: { BUILD_TIME: new Date().toISOString() },
  reactStrictMode: true,
  // pino and better-sqlite3 stay plain Node modules on the server, never bundled.
  // prom-client too: the proxy and the routes are bundled apart and must share one registry.
  serverExternalPackages: ['pino', 'better-sqlite3', 'prom-client'],
  // forbidden(): a real HTTP 403 for another account's collection or provider.
  experimental: {
    authInterrupts: true,
  },
  async redirects() {
    return [{ source: '/', destination: '/collections', permanent: false }];
  },
};

export default nextConfig;
