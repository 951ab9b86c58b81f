/** At this width or less a map is narrow: one panel at a time, a pick closes the list, and the legend starts closed. */
export const NARROW_WIDTH = 640;
