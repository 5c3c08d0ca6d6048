'use client';

import { Deferred } from '@/components/ui/deferred';
import { tagSelectedLabel, TAG_SELECTED_BUTTON } from './tag-buttons';
import type { TagSelectedProps } from './tag-selected';

const load = () => import('./tag-selected').then((m) => m.default);

/** The list's "Tag selected" button: its panel (tag-selected.tsx) loads at first use, as the Views menu's. */
export function TagSelectedControl(props: TagSelectedProps) {
  const n = props.selected.length;
  return <Deferred load={load} props={props} label={tagSelectedLabel(n)} buttonClassName={TAG_SELECTED_BUTTON} />;
}
