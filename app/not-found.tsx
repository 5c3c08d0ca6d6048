import { NotFoundPanel } from '@/components/layout/status-panels';

export default function NotFound() {
  return <NotFoundPanel title="Page not found" body="There is no page at this address." />;
}
