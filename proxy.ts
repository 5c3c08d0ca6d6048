import { NextResponse, type NextRequest } from 'next/server';
import { correctedCollectionsUrl } from '@/lib/query/list-params';

/**
 * Runs before every route. A bad `page`/`limit` on the collections page is
 * corrected with a real redirect here, before any rendering or streaming.
 */
export function proxy(request: NextRequest) {
  const { pathname, searchParams } = request.nextUrl;
  if (pathname === '/collections') {
    const corrected = correctedCollectionsUrl(searchParams);
    if (corrected) return NextResponse.redirect(new URL(corrected, request.url), 307);
  }
  return NextResponse.next();
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};
