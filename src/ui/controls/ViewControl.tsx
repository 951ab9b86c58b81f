import type { ViewName } from '../../config/address.ts';
import type { Locale } from '../../config/locale.ts';

/**
 * The switch between the vector view and the hybrid view: two buttons, the current one pressed.
 * Switching keeps the camera and the open popup (the Pinmap component carries them over).
 */
export function ViewControl({ view, onSwitch, locale }: { view: ViewName; onSwitch: (view: ViewName) => void; locale: Locale }) {
  const views: [ViewName, string][] = [
    ['vector', locale['ViewControl.Vector']],
    ['hybrid', locale['ViewControl.Hybrid']],
  ];
  return (
    <div className="pinmap-ctrl pinmap-ctrl-group pinmap-view-switch" role="group" aria-label={locale['ViewControl.Label']} data-state={view}>
      {views.map(([name, label]) => (
        <button key={name} type="button" className="pinmap-button pinmap-view-button" data-view={name} aria-pressed={view === name} onClick={() => view !== name && onSwitch(name)}>
          {label}
        </button>
      ))}
    </div>
  );
}
