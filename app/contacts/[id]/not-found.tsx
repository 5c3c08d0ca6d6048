import { NotFoundPanel } from '@/components/layout/status-panels';

export default function ContactNotFound() {
  return (
    <NotFoundPanel
      title="Contact not found"
      body="The index holds no collection of this contact. Check the id for typos, or search for the person by e-mail, phone or name with the box above."
    />
  );
}
