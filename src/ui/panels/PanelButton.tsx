import type { ReactNode, RefObject } from 'react';

/**
 * The button that opens and closes a pin panel (the list, the legend): a control of its own in its
 * corner, named by `label` (its title too), saying whether its panel is open and, while it is,
 * which element the panel is.
 */
export function PanelButton({
  buttonRef,
  className,
  label,
  open,
  panelId,
  onClick,
  children,
}: {
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** The panel's own class for its button, besides `pinmap-button`. */
  className: string;
  label: string;
  open: boolean;
  /** The id of the panel it opens (`aria-controls` while it is open). */
  panelId: string;
  onClick: () => void;
  /** Its icon. */
  children: ReactNode;
}) {
  return (
    <div className="pinmap-ctrl-group">
      <button
        ref={buttonRef}
        type="button"
        className={`pinmap-button ${className}`}
        title={label}
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={onClick}
      >
        {children}
      </button>
    </div>
  );
}
