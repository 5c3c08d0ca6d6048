import Link from '@/components/account/account-scope';

/** The body of the not-found and forbidden pages: what happened and where to go. */
export function NotFoundPanel({ title, body }: { title: string; body: string }) {
  return (
    <div className="mx-auto max-w-xl py-12 text-center">
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{body}</p>
      <p className="mt-6">
        <Link href="/collections" className="font-medium text-sky-800 underline dark:text-sky-300">
          Go to collections
        </Link>
      </p>
    </div>
  );
}
