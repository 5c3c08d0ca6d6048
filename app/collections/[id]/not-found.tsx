import { NotFoundPanel } from '@/components/layout/status-panels';

export default function CollectionNotFound() {
  return (
    <NotFoundPanel
      title="Collection not found"
      body="No collection with this id exists for this account. Check the id for typos, or open another one with the box above."
    />
  );
}
