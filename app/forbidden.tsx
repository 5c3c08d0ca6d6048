import { NotFoundPanel } from '@/components/layout/status-panels';

export default function Forbidden() {
  return (
    <NotFoundPanel
      title="This record belongs to a different account"
      body="The collection or provider you opened belongs to a different account than the one this dashboard's API key reads. Ask for its id in the right account, or check the ticket."
    />
  );
}
