import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/layout/app-header';
import { getConfig } from '@/lib/server/env';
import { sandboxExamples } from '@/lib/server/sandbox-examples';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Collections Console', template: '%s · Collections Console' },
  description: 'Browse collections and providers of your payments account.',
  robots: { index: false, follow: false },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#fafafa' },
    { media: '(prefers-color-scheme: dark)', color: '#18181b' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page reads per-request configuration and live data: never prerender.
  await connection();
  const { upstream } = getConfig();
  const examples = await sandboxExamples();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm dark:focus:bg-zinc-900">
          Skip to content
        </a>
        <AppHeader sandbox={upstream.sandbox} examples={examples} />
        <main id="main" className="mx-auto max-w-7xl px-4 py-6">
          {children}
        </main>
      </body>
    </html>
  );
}
