'use client';

import { Deferred } from '@/components/ui/deferred';
import { VIEWS_BUTTON, type ViewsMenuProps } from './views-api';

const load = () => import('./views-menu').then((m) => m.default);

/**
 * The list's "Views" button: its menu (views-menu.tsx: the views, their counts, saving and sharing) loads at
 * first use, so a list's first load carries the button alone.
 */
export function ViewsControl(props: ViewsMenuProps) {
  return <Deferred load={load} props={props} label="Views" buttonClassName={VIEWS_BUTTON} />;
}
