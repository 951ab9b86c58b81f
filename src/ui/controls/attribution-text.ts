/**
 * Attribution text made safe to show. Sources give their credits as HTML written by whoever
 * runs them; Pinmap never injects it. It keeps the text and the http(s) links and drops the rest
 * (tags, attributes, scripts and styles with their content), then React renders the parts as text
 * and `<a>` elements.
 */

/** A run of text, or a link with its text. */
export type AttributionPart = { text: string; href?: undefined } | { text: string; href: string };

/**
 * The credits to show, CONTROLS.md's "Gathering": custom credits first, then the sources'; blank
 * and repeated entries dropped; sorted by length; an entry contained in a later one dropped.
 */
export function gatherAttributions(custom: readonly string[], fromSources: readonly string[]): string[] {
  const unique: string[] = [];
  for (const entry of [...custom, ...fromSources]) {
    if (typeof entry === 'string' && entry.trim() && !unique.includes(entry)) unique.push(entry);
  }
  const sorted = unique.sort((a, b) => a.length - b.length);
  return sorted.filter((entry, i) => !sorted.slice(i + 1).some((later) => later.includes(entry)));
}

/** Elements whose content is never text to show. */
const DROPPED_WITH_CONTENT = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'svg', 'math', 'textarea', 'title'];

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  middot: '·',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  bull: '•',
};

/** Decodes the character references of HTML text (named ones Pinmap knows, and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The href of an `<a …>` start tag when it is an absolute http(s) URL; anything else is no link. */
function safeHref(tag: string): string | undefined {
  const match = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
  const raw = match ? decodeEntities(match[1] ?? match[2] ?? match[3] ?? '').trim() : '';
  if (!/^https?:\/\//i.test(raw)) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits attribution HTML into text and http(s) links. Never returns markup: every part's
 * text is plain text, to be rendered as such.
 */
export function attributionParts(html: string): AttributionPart[] {
  const parts: AttributionPart[] = [];
  let link: string | undefined;
  const push = (raw: string) => {
    const text = decodeEntities(raw);
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last && last.href === link) last.text += text;
    else parts.push(link ? { text, href: link } : { text });
  };
  const tokens = /<!--[\s\S]*?(?:-->|$)|<\/?([a-z][a-z0-9-]*)\b(?:[^>"']|"[^"]*"|'[^']*')*>?/gi;
  let at = 0;
  let match: RegExpExecArray | null;
  while ((match = tokens.exec(html))) {
    push(html.slice(at, match.index));
    at = tokens.lastIndex;
    const tag = match[0];
    const name = match[1]?.toLowerCase();
    if (!name) continue; // a comment
    const closing = tag.startsWith('</');
    if (!closing && DROPPED_WITH_CONTENT.includes(name)) {
      const end = new RegExp(`</${name}\\s*>`, 'i');
      const rest = end.exec(html.slice(at));
      at = rest ? at + rest.index + rest[0].length : html.length;
      tokens.lastIndex = at;
      continue;
    }
    if (name === 'a') link = closing ? undefined : safeHref(tag);
  }
  push(html.slice(at));
  return parts;
}
