/**
 * The pins' fonts (`icon-font-css.ts`: Font Awesome's classes and faces, and the pin labels'
 * face), loaded once, when the first pin needs them: its glyph is looked up, its image drawn or
 * its element made. Its 100 KB style sheet of icon classes otherwise costs every style
 * recalculation of the page, also on a map that shows only bubbles.
 */
import { reasonOf } from './errors.ts';

let loading: Promise<void> | undefined;

/** Resolves once the pins' fonts are in the page (or could not be loaded, which is told once). */
export function loadIconFont(): Promise<void> {
  loading ??= import('./icon-font-css.ts').then(
    () => {},
    (error: unknown) => {
      console.error(`Pinmap: the pins' icon font could not be loaded; pins show without their glyphs: ${reasonOf(error)}`);
    },
  );
  return loading;
}
