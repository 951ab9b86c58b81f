/** The pin panels' icons, on the controls' 29 × 29 px grid, in `currentColor`. */

const svgProps = { width: 29, height: 29, viewBox: '0 0 29 29', 'aria-hidden': true, focusable: false } as const;

/** Three lines with a bullet each: the list of the pins in view. */
export function ListIcon() {
  return (
    <svg {...svgProps}>
      <path fill="currentColor" d="M8 9h2v2H8zm4 0h9v2h-9zm-4 4.5h2v2H8zm4 0h9v2h-9zM8 18h2v2H8zm4 0h9v2h-9z" />
    </svg>
  );
}

/** Three swatches with lines: the legend. */
export function LegendIcon() {
  return (
    <svg {...svgProps}>
      <circle cx="9" cy="10" r="2" fill="#C62828" />
      <circle cx="9" cy="14.5" r="2" fill="#2E7D32" />
      <circle cx="9" cy="19" r="2" fill="#1565C0" />
      <path fill="currentColor" d="M13 9h8v2h-8zm0 4.5h8v2h-8zm0 4.5h8v2h-8z" />
    </svg>
  );
}

/** A magnifying glass, in the search box. */
export function SearchIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 16 16" aria-hidden focusable={false}>
      <path fill="currentColor" d="M6.5 1a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64-1.06 1.06-3.64-3.65A5.5 5.5 0 1 1 6.5 1zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8z" />
    </svg>
  );
}
