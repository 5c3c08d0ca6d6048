import { describe, expect, it } from 'vitest';
import { isShortcut } from './keys';

const target = (matches: boolean) => ({ closest: () => (matches ? {} : null) }) as unknown as EventTarget;
const key = (over: Partial<Parameters<typeof isShortcut>[0]> = {}) => ({
  key: 'j',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: target(false),
  ...over,
});

describe('isShortcut', () => {
  it('acts on a plain key outside any field', () => {
    expect(isShortcut(key())).toBe(true);
    expect(isShortcut(key({ target: null }))).toBe(true);
  });
  it('never while the user types', () => {
    expect(isShortcut(key({ target: target(true) }))).toBe(false);
  });
  it('never steals the browser’s combinations, repeats or handled keys', () => {
    for (const over of [
      { ctrlKey: true },
      { metaKey: true },
      { altKey: true },
      { repeat: true },
      { defaultPrevented: true },
    ])
      expect(isShortcut(key(over))).toBe(false);
  });
});
