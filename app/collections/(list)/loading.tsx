import { Skeleton } from '@/components/ui/skeleton';

export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <h1 className="mb-4 text-xl font-semibold tracking-tight">Collections</h1>
      <p className="sr-only">Loading collections…</p>
      <div className="space-y-2">
        {Array.from({ length: 10 }, (_, i) => <Skeleton key={i} className="h-10 w-full" />)}
      </div>
    </div>
  );
}
