import { useSyncExternalStore } from 'react';
import type { PinmapConfig, Theme } from '../../config/schema.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The system's colour scheme now (light where the page cannot ask). */
function systemTheme(): Theme {
  return typeof window !== 'undefined' && window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Calls `onChange` whenever the system's colour scheme changes. Returns what stops it. */
function watchSystemTheme(onChange: () => void): () => void {
  const query = typeof window !== 'undefined' ? window.matchMedia?.(DARK_QUERY) : undefined;
  if (!query) return () => {};
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * The theme to show for the config's `theme`: `light` and `dark` as they are; `auto` follows the
 * system's `prefers-color-scheme`, live (a change of the system's setting re-renders with the
 * other theme).
 */
export function useTheme(theme: PinmapConfig['theme']): Theme {
  const system = useSyncExternalStore(watchSystemTheme, systemTheme, () => 'light' as const);
  return theme === 'auto' ? system : theme;
}
