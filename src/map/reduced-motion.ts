/** The media query of users who ask for less motion. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * Whether the user asks for less motion now: camera moves, pin glides and fades are then jumps,
 * in both views. False where there is no `matchMedia` (server rendering, tests without a DOM).
 */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia(REDUCED_MOTION_QUERY).matches;
}
