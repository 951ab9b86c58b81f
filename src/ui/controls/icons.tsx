/**
 * The controls' icons: Pinmap's own drawings on MapLibre's 29 × 29 px button grid, in
 * `currentColor` so the style sheet colours them per state.
 */

const svgProps = { width: 29, height: 29, viewBox: '0 0 29 29', 'aria-hidden': true, focusable: false } as const;

export function ZoomInIcon() {
  return (
    <svg {...svgProps}>
      <path fill="currentColor" d="M13.5 8.5h2v5h5v2h-5v5h-2v-5h-5v-2h5z" />
    </svg>
  );
}

export function ZoomOutIcon() {
  return (
    <svg {...svgProps}>
      <path fill="currentColor" d="M8.5 13.5h12v2h-12z" />
    </svg>
  );
}

/** A two-coloured needle; the north half is red. The caller rotates it by −bearing. */
export function CompassIcon({ bearing }: { bearing: number }) {
  return (
    <svg {...svgProps} style={{ transform: `rotate(${-bearing}deg)` }} className="pinmap-compass-needle">
      <path fill="#d6423a" d="M14.5 5.5 18 14.5h-7z" />
      <path fill="currentColor" d="M11 14.5h7l-3.5 9z" />
    </svg>
  );
}

export function GeolocateIcon() {
  return (
    <svg {...svgProps}>
      <g fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="14.5" cy="14.5" r="5.5" />
        <path d="M14.5 5.5v3.5M14.5 20v3.5M5.5 14.5H9M20 14.5h3.5" />
      </g>
      <circle className="pinmap-geolocate-centre" cx="14.5" cy="14.5" r="2.5" fill="currentColor" />
    </svg>
  );
}

export function EnterFullscreenIcon() {
  return (
    <svg {...svgProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" d="M8 12.5V8h4.5M16.5 8H21v4.5M21 16.5V21h-4.5M12.5 21H8v-4.5" />
    </svg>
  );
}

export function ExitFullscreenIcon() {
  return (
    <svg {...svgProps}>
      <path fill="none" stroke="currentColor" strokeWidth="2" d="M8 12.5h4.5V8M16.5 8v4.5H21M21 16.5h-4.5V21M12.5 21v-4.5H8" />
    </svg>
  );
}

export function InfoIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden focusable={false}>
      <path fill="currentColor" fillRule="evenodd" d="M12 3.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17zm1.2 7h-2.4v7h2.4zM12 6.4a1.35 1.35 0 1 0 0 2.7 1.35 1.35 0 0 0 0-2.7z" />
    </svg>
  );
}
