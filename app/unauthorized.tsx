import { NotFoundPanel } from '@/components/layout/status-panels';

export default function Unauthorized() {
  return (
    <NotFoundPanel
      title="Sign in required"
      body="This dashboard is protected. Reload the page and sign in with your dashboard user name and password."
    />
  );
}
