'use client';

import { Deferred } from '@/components/ui/deferred';
import { EDIT_TAGS_BUTTON } from './tag-buttons';
import type { EditTagsProps } from './edit-tags';

const load = () => import('./edit-tags').then((m) => m.default);

/** "Edit tags" on a record: its panel (edit-tags.tsx) loads at first use, so the record's first load carries the button. */
export function EditTagsControl(props: EditTagsProps) {
  return <Deferred load={load} props={props} label="Edit tags" buttonClassName={EDIT_TAGS_BUTTON} />;
}
