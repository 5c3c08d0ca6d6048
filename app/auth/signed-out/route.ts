import { authPage } from '@/lib/server/auth/page';

/** `GET /auth/signed-out`: where signing out lands. */
export function GET() {
  return authPage({
    status: 200,
    title: 'You have signed out',
    message: 'Your session on this dashboard has ended. Your identity provider may still have you signed in.',
    action: { href: '/auth/sign-in', label: 'Sign in again' },
  });
}
