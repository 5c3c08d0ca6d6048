/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // pino and better-sqlite3 stay plain Node modules on the server, never bundled.
  serverExternalPackages: ['pino', 'better-sqlite3'],
  async redirects() {
    return [{ source: '/', destination: '/collections', permanent: false }];
  },
};

export default nextConfig;
