/**
 * What a pin's popup says: its title, its description, the config's `popupFields` the pin has
 * (as `name: value` lines) and, when the pin has one, a link. Every
 * string from the pin data is set as text (`textContent`), never parsed as HTML, so a title such
 * as `<img src=x onerror=alert(1)>` shows those characters and runs nothing. Title and
 * description take their direction from their own text (`dir="auto"`), so an Arabic or Hebrew
 * name reads and aligns right to left.
 */

/** The pin fields a popup shows. */
export interface PopupPin {
  title: string;
  description: string;
  url?: string | undefined;
  /** `[property, text]` lines below the description (`Pin.popupFields`). */
  popupFields?: readonly (readonly [string, string])[] | undefined;
}

/** The URL as a link target when it is an absolute http(s) URL; anything else is no link. */
export function linkTarget(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the popup's content as DOM nodes. */
export function createPopupContent(pin: PopupPin, doc: Document = document): HTMLElement {
  const root = doc.createElement('div');
  root.className = 'pinmap-popup-content';
  const title = doc.createElement('p');
  title.className = 'pinmap-popup-title';
  title.dir = 'auto';
  title.textContent = pin.title;
  root.append(title);
  if (pin.description) {
    const description = doc.createElement('p');
    description.className = 'pinmap-popup-description';
    description.dir = 'auto';
    description.textContent = pin.description;
    root.append(description);
  }
  if (pin.popupFields?.length) root.append(fieldList(pin.popupFields, doc));
  const href = linkTarget(pin.url);
  if (href) {
    // The link reads as where it goes (its host), so nobody follows it blind.
    const link = doc.createElement('a');
    link.className = 'pinmap-popup-link';
    link.href = href;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = new URL(href).host;
    root.append(link);
  }
  return root;
}

/** The popup fields as a description list: each property's name, then its text. */
function fieldList(fields: readonly (readonly [string, string])[], doc: Document): HTMLElement {
  const list = doc.createElement('dl');
  list.className = 'pinmap-popup-fields';
  for (const [name, text] of fields) {
    const term = doc.createElement('dt');
    term.dir = 'auto';
    term.textContent = name;
    const value = doc.createElement('dd');
    value.dir = 'auto';
    value.textContent = text;
    list.append(term, value);
  }
  return list;
}
