import { NotFoundPanel } from '@/components/layout/status-panels';

export default function ProviderNotFound() {
  return (
    <NotFoundPanel
      title="Provider not found"
      body="No provider with this id exists for this account. Check the id for typos, or open another one with the box above."
    />
  );
}
