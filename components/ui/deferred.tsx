'use client';

import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { focusRing } from './button';

/** What a deferred control is mounted with: open it at once (it was clicked) and focus its button (it had focus). */
export type DeferredProps = { initialOpen?: boolean; focusOnMount?: boolean };

/**
 * A shell control the first paint does not need (a menu, a panel): its button is drawn at once, its code
 * loads at first use (pointer over it, focus, a click) or after `idleMs`, and then takes the button's place,
 * open if it was clicked and focused if the button had focus. A page's first load carries the button only.
 */
export function Deferred<P extends object>({
  load,
  props,
  label,
  buttonClassName = '',
  idleMs,
}: {
  load: () => Promise<ComponentType<P & DeferredProps>>;
  props: P;
  label: ReactNode;
  buttonClassName?: string;
  /** Load anyway after this long (a control that keeps itself up to date). */
  idleMs?: number;
}) {
  const [loaded, setLoaded] = useState<{ Component: ComponentType<P & DeferredProps>; focus: boolean } | null>(null);
  const [clicked, setClicked] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const loading = useRef(false);

  function start() {
    if (loading.current) return;
    loading.current = true;
    void load().then(
      (Component) => setLoaded({ Component, focus: document.activeElement === button.current }),
      () => {
        loading.current = false; // offline for a moment: the next use tries again
      },
    );
  }

  function press() {
    setClicked(true);
    start();
  }

  useEffect(() => {
    if (idleMs === undefined) return;
    const timer = setTimeout(start, idleMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- start only reads refs and stable setters
  }, [idleMs]);

  if (loaded) return <loaded.Component {...props} initialOpen={clicked} focusOnMount={loaded.focus} />;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={false}
        onPointerEnter={start}
        onFocus={start}
        // Pressed, it opens once loaded: if the code arrives between the press and the release, the release
        // lands on the loaded control's button and no click reaches either one.
        onPointerDown={press}
        onClick={press}
        className={`inline-flex items-center gap-1.5 ${focusRing} ${buttonClassName}`}
      >
        {label}
      </button>
    </div>
  );
}
