import { Copyable } from '@/components/ui/copyable';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, Fields, Section } from '@/components/ui/section';
import type { ReactNode } from 'react';
import type { Contact } from '@/lib/api/schemas';

const link = 'text-sky-800 underline-offset-2 hover:underline dark:text-sky-300';

/** The record's contact in full; `children` below it (the link to the contact's page, streamed in). */
export function ContactCard({ contact, children }: { contact: Contact; children?: ReactNode }) {
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
          {contact.phone ? (
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
          {contact.email ? (
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
