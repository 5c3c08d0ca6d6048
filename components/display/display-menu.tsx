'use client';

import { Deferred } from '@/components/ui/deferred';
import { DISPLAY_BUTTON, DISPLAY_LABEL } from './display-label';

const load = () => import('./display-control').then((m) => m.default);

/** The shell's "Display" button (display-control.tsx): its menu's code loads at first use. */
export function DisplayMenu() {
  return <Deferred load={load} props={{}} label={DISPLAY_LABEL} buttonClassName={DISPLAY_BUTTON} />;
}
