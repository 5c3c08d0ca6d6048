import { Copyable } from '@/components/ui/copyable';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, Fields, Section } from '@/components/ui/section';
import type { ReactNode } from 'react';
import type { Contact } from '@/lib/api/schemas';

const link = 'text-sky-800 underline-offset-2 hover:underline dark:text-sky-300';

/**
 * The record's contact as the reader may see it (contract section 7a); `children` below it (the link to the
 * contact's page, streamed in). Masked details are text only: no link to call or write, nothing to copy.
 */
export function ContactCard({
  contact,
  masked = false,
  children,
}: {
  contact: Contact;
  masked?: boolean;
  children?: ReactNode;
}) {
  const name = `${contact.firstName} ${contact.lastName}`.trim();
  return (
    <Section title="Contact" id="contact">
      <Fields>
        <Field term="Name">
          <span className="inline-flex items-center gap-1">
            {name || '—'}
            {name ? <CopyButton value={name} label="name" /> : null}
          </span>
        </Field>
        <Field term="Phone">
          {masked ? (
            <MaskedValue value={contact.phone} what="phone" />
          ) : contact.phone ? (
            <span className="inline-flex items-center gap-1">
              <a className={link} href={`tel:${contact.phone.replace(/[^\d+]/g, '')}`}>
                {contact.phone}
              </a>
              <CopyButton value={contact.phone} label="phone" />
            </span>
          ) : (
            '—'
          )}
        </Field>
        <Field term="Email">
          {masked ? (
            <MaskedValue value={contact.email} what="e-mail" />
          ) : contact.email ? (
            <span className="inline-flex items-center gap-1">
              <a className={`${link} break-all`} href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
              <CopyButton value={contact.email} label="email" />
            </span>
          ) : (
            '—'
          )}
        </Field>
        <Field term="Contact ID">
          <Copyable value={contact.id} label="contact id" />
        </Field>
      </Fields>
      {children}
    </Section>
  );
}

/** A masked detail, named as masked for a screen reader (the bullets alone read as nothing). */
function MaskedValue({ value, what }: { value: string; what: string }) {
  if (!value) return '—';
  return (
    <span>
      {value} <span className="muted text-xs">(masked: the full {what} is shown to admins)</span>
    </span>
  );
}
