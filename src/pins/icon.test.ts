import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PIN_PATH,
  PIN_DEFAULTS,
  PIN_HEIGHT,
  PIN_WIDTH,
  contentText,
  pinDrawing,
  pinStyleKey,
  resolvePinStyle,
  type PinDrawing,
} from './icon.ts';
import { isSvgPathData } from '../config/pin-options.ts';
import type { PinOptions } from '../config/pin-options.ts';
import { SharedStyles } from './icon.ts';
import type { Pin } from './types.ts';

/** The pin drawn from options, as the renderers get it. */
const draw = (options: PinOptions = {}) => pinDrawing(resolvePinStyle(options));

/** The attributes of the first element named `tag` in the markup, entities decoded. */
function attributes(svg: string, tag: string): Record<string, string> | undefined {
  const element = new RegExp(`<${tag}\\b([^>]*?)/?>`).exec(svg);
  if (!element) return undefined;
  const found: Record<string, string> = {};
  for (const [, name, value] of (element[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)) {
    found[name!] = value!
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return found;
}

const body = (drawing: PinDrawing) => attributes(drawing.svg, 'path') ?? {};
const root = (drawing: PinDrawing) => attributes(drawing.svg, 'svg') ?? {};

/** The points named by absolute path data (M, L, C and A commands): control points and ends. */
function absolutePoints(path: string): [number, number][] {
  const points: [number, number][] = [];
  for (const [, command, args] of path.matchAll(/([MLCAZ])([^MLCAZ]*)/g)) {
    const n = (args ?? '').match(/-?\d*\.?\d+/g)?.map(Number) ?? [];
    // An arc's first five numbers are radii, rotation and flags; only its end is a point.
    const coordinates = command === 'A' ? n.slice(5) : n;
    for (let i = 0; i + 1 < coordinates.length; i += 2) points.push([coordinates[i]!, coordinates[i + 1]!]);
  }
  return points;
}

describe('resolvePinStyle', () => {
  it('fills in the defaults of PRODUCT.md', () => {
    expect(resolvePinStyle()).toEqual({
      iconClasses: '',
      iconColor: '#ffffff',
      iconSize: 16,
      iconXOffset: 0,
      iconYOffset: 0,
      markerColor: '#3FB1CE',
      markerFillOpacity: 1,
      markerStrokeColor: '#3FB1CE',
      markerStrokeWidth: 1,
      markerPath: DEFAULT_PIN_PATH,
      popupAnchor: [0, -50],
      scale: 1,
      label: undefined,
      shadow: false,
    });
  });

  it('outlines the pin in its fill colour unless told otherwise', () => {
    expect(resolvePinStyle({ markerColor: '#c0392b' }).markerStrokeColor).toBe('#c0392b');
    expect(resolvePinStyle({ markerColor: '#c0392b', markerStrokeColor: 'black' }).markerStrokeColor).toBe('black');
  });

  it('keeps zeros', () => {
    const style = resolvePinStyle({ markerFillOpacity: 0, markerStrokeWidth: 0, iconSize: 0, iconXOffset: 0, popupAnchor: [0, 0] });
    expect(style).toMatchObject({ markerFillOpacity: 0, markerStrokeWidth: 0, iconSize: 0, iconXOffset: 0, popupAnchor: [0, 0] });
  });

  it('replaces a markerPath that is not path data with our shape', () => {
    expect(resolvePinStyle({ markerPath: '"/><script>alert(1)</script>' }).markerPath).toBe(DEFAULT_PIN_PATH);
    expect(resolvePinStyle({ markerPath: 'M0 0L32 0L16 52Z' }).markerPath).toBe('M0 0L32 0L16 52Z');
  });

  it('does not share the default popupAnchor between styles', () => {
    const first = resolvePinStyle();
    first.popupAnchor[1] = 7;
    expect(resolvePinStyle().popupAnchor).toEqual([0, -50]);
    expect(PIN_DEFAULTS.popupAnchor).toEqual([0, -50]);
  });
});

describe('pinDrawing with no options', () => {
  const drawing = draw();

  it('is a 32 × 52 px pin whose tip is the bottom centre of the box', () => {
    expect([drawing.width, drawing.height]).toEqual([PIN_WIDTH, PIN_HEIGHT]);
    expect(drawing.tip).toEqual([16, 52]);
  });

  it('draws our own shape, filled #3FB1CE, opaque, outlined 1 px in the same colour', () => {
    expect(body(drawing)).toMatchObject({
      d: DEFAULT_PIN_PATH,
      fill: '#3FB1CE',
      'fill-opacity': '1',
      stroke: '#3FB1CE',
      'stroke-width': '1',
    });
  });

  it('opens popups 50 px above the tip', () => {
    expect(drawing.popupAnchor).toEqual([0, -50]);
  });

  it('has no glyph, no label and no shadow', () => {
    expect(drawing.content).toBeNull();
    expect(drawing.shadow).toBeNull();
    expect(drawing.svg).not.toContain('<ellipse');
  });

  it('lines the SVG up with the box: its viewBox is the box grown by the margin on each side', () => {
    const m = drawing.margin;
    expect(m).toBeGreaterThanOrEqual(0.5);
    expect(root(drawing)).toMatchObject({
      viewBox: `${-m} ${-m} ${32 + 2 * m} ${52 + 2 * m}`,
      width: String(32 + 2 * m),
      height: String(52 + 2 * m),
    });
  });
});

describe('the default pin shape', () => {
  const points = absolutePoints(DEFAULT_PIN_PATH);

  it('starts and ends at the tip, the bottom centre of the 32 × 52 box', () => {
    expect(DEFAULT_PIN_PATH.startsWith('M16 52')).toBe(true);
    expect(points.at(-1)).toEqual([16, 52]);
  });

  it('stays inside the box, with a head wide enough for a 16 px glyph around y = 16', () => {
    for (const [x, y] of points) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(32);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(52);
    }
    // The head is an arc of radius 15 from (1, 16) to (31, 16): 30 px across at the glyph's centre.
    expect(DEFAULT_PIN_PATH).toContain('1 16A15 15 0 0 1 31 16');
  });
});

describe('pinDrawing, option by option', () => {
  it('iconClasses: places a glyph of those classes in the centre of the head', () => {
    expect(draw({ iconClasses: 'fa-solid fa-mug-hot' }).content).toEqual({
      kind: 'glyph',
      classes: 'fa-solid fa-mug-hot',
      color: '#ffffff',
      size: 16,
      x: 16,
      y: 16,
    });
  });

  it('iconClasses: tidies spaces, and an empty or blank string means no glyph', () => {
    expect(draw({ iconClasses: '  fa   fa-star ' }).content).toMatchObject({ kind: 'glyph', classes: 'fa fa-star' });
    expect(draw({ iconClasses: '' }).content).toBeNull();
    expect(draw({ iconClasses: '   ' }).content).toBeNull();
  });

  it('iconColor: colours the glyph', () => {
    expect(draw({ iconClasses: 'fa-solid fa-star', iconColor: 'rgb(10, 20, 30)' }).content).toMatchObject({ color: 'rgb(10, 20, 30)' });
  });

  it('iconSize: sizes the glyph; 0 draws none', () => {
    expect(draw({ iconClasses: 'fa-solid fa-star', iconSize: 24 }).content).toMatchObject({ size: 24 });
    expect(draw({ iconClasses: 'fa-solid fa-star', iconSize: 0 }).content).toBeNull();
  });

  it('iconXOffset and iconYOffset: nudge the glyph, negative values too', () => {
    expect(draw({ iconClasses: 'fa-solid fa-star', iconXOffset: 3, iconYOffset: -2 }).content).toMatchObject({ x: 19, y: 14 });
    expect(draw({ iconClasses: 'fa-solid fa-star', iconXOffset: -4, iconYOffset: 5 }).content).toMatchObject({ x: 12, y: 21 });
  });

  it('markerColor: fills the pin and, with no stroke colour given, outlines it', () => {
    expect(body(draw({ markerColor: '#c0392b' }))).toMatchObject({ fill: '#c0392b', stroke: '#c0392b' });
  });

  it('markerFillOpacity: sets the fill opacity; 0 is transparent', () => {
    expect(body(draw({ markerFillOpacity: 0.4 }))['fill-opacity']).toBe('0.4');
    expect(body(draw({ markerFillOpacity: 0 }))['fill-opacity']).toBe('0');
  });

  it('markerStrokeColor: outlines the pin', () => {
    expect(body(draw({ markerColor: '#3FB1CE', markerStrokeColor: 'navy' }))).toMatchObject({ fill: '#3FB1CE', stroke: 'navy' });
  });

  it('markerStrokeWidth: sets the outline width; 0 draws no outline', () => {
    expect(body(draw({ markerStrokeWidth: 2.5 }))['stroke-width']).toBe('2.5');
    const none = body(draw({ markerStrokeWidth: 0, markerStrokeColor: 'black' }));
    expect(none.stroke).toBe('none');
    expect(none['stroke-width']).toBeUndefined();
  });

  it('markerStrokeWidth: a wide outline gets room around the box', () => {
    expect(draw({ markerStrokeWidth: 6 }).margin).toBeGreaterThanOrEqual(3);
    expect(draw({ markerStrokeWidth: 0 }).margin).toBe(0);
  });

  it('markerPath: draws the given outline', () => {
    expect(body(draw({ markerPath: 'M16 52L0 0H32Z' })).d).toBe('M16 52L0 0H32Z');
  });

  it('popupAnchor: is kept as given, zero included', () => {
    expect(draw({ popupAnchor: [4, -30] }).popupAnchor).toEqual([4, -30]);
    expect(draw({ popupAnchor: [0, 0] }).popupAnchor).toEqual([0, 0]);
  });
});

describe('pinDrawing, beyond the table', () => {
  it.each([0.5, 1, 1.5, 2, 3])('scale %s: box, glyph and popup anchor scale and the tip stays the bottom centre', (scale) => {
    const drawing = draw({ scale, iconClasses: 'fa-solid fa-star', iconXOffset: 2, iconYOffset: -1, popupAnchor: [4, -50] });
    expect([drawing.width, drawing.height]).toEqual([32 * scale, 52 * scale]);
    expect(drawing.tip).toEqual([drawing.width / 2, drawing.height]);
    expect(drawing.popupAnchor).toEqual([4 * scale, -50 * scale]);
    expect(drawing.content).toMatchObject({ size: 16 * scale, x: 18 * scale, y: 15 * scale });
    const m = drawing.margin / scale;
    expect(root(drawing)).toMatchObject({
      width: String((32 + 2 * m) * scale),
      height: String((52 + 2 * m) * scale),
      viewBox: `${-m} ${-m} ${32 + 2 * m} ${52 + 2 * m}`,
    });
  });

  it('label: draws the text in the head in the glyph colour, instead of a glyph', () => {
    expect(draw({ label: '7', iconClasses: 'fa-solid fa-star', iconColor: 'black' }).content).toMatchObject({
      kind: 'label',
      text: '7',
      color: 'black',
      size: 16,
      x: 16,
      y: 16,
    });
  });

  it('label: shrinks longer labels so three characters fit the head', () => {
    const sizes = ['1', '12', '123'].map((label) => draw({ label }).content?.size ?? 0);
    expect(sizes[0]).toBe(16);
    expect(sizes[1]).toBeLessThan(sizes[0]!);
    expect(sizes[2]).toBeLessThan(sizes[1]!);
    // Three bold digits are about 0.6 em each: they must fit the head's 30 px.
    expect(3 * 0.6 * sizes[2]!).toBeLessThan(30);
  });

  it('label: scales with the pin', () => {
    expect(draw({ label: 'A', scale: 2 }).content).toMatchObject({ size: 32, x: 32, y: 32 });
  });

  it('shadow: an ellipse under the tip that reaches beyond the box; none by default', () => {
    const drawing = draw({ shadow: true });
    expect(drawing.shadow).toMatchObject({ cx: 16, cy: 52 });
    expect(attributes(drawing.svg, 'ellipse')).toMatchObject({ cx: '16', cy: '52' });
    expect(drawing.margin).toBeGreaterThanOrEqual(drawing.shadow!.ry + drawing.shadow!.blur);
    expect(drawing.svg.indexOf('<ellipse')).toBeLessThan(drawing.svg.indexOf('<path'));
    expect(draw({ shadow: false }).shadow).toBeNull();
  });

  it('shadow: scales with the pin and stays under the tip', () => {
    const drawing = draw({ shadow: true, scale: 2 });
    expect(drawing.shadow).toMatchObject({ cx: drawing.tip[0], cy: drawing.tip[1] });
    expect(drawing.shadow!.rx).toBe(2 * draw({ shadow: true }).shadow!.rx);
  });
});

describe('markup safety', () => {
  const hostile = '"><script>alert(1)</script><path d="';

  it('escapes colours, so no option string becomes markup', () => {
    const drawing = pinDrawing({ ...resolvePinStyle(), markerColor: hostile, markerStrokeColor: `'${hostile}` });
    expect(drawing.svg).not.toContain('<script');
    expect(drawing.svg.match(/<path\b/g)).toHaveLength(1);
    expect(body(drawing)).toMatchObject({ fill: hostile, stroke: `'${hostile}` });
  });

  it('never draws a markerPath that is not path data, even when handed one directly', () => {
    const drawing = pinDrawing({ ...resolvePinStyle(), markerPath: `M0 0${hostile}` });
    expect(drawing.svg).not.toContain('script');
    expect(body(drawing).d).toBe(DEFAULT_PIN_PATH);
  });

  it('keeps labels out of the markup: they are drawn as text', () => {
    const drawing = draw({ label: '<b>' });
    expect(drawing.svg).not.toContain('<b>');
    expect(drawing.content).toMatchObject({ kind: 'label', text: '<b>' });
  });

  it('tells path data from anything else', () => {
    expect(isSvgPathData(DEFAULT_PIN_PATH)).toBe(true);
    expect(isSvgPathData('m 1,2 l 3e1 -4.5 z')).toBe(true);
    expect(isSvgPathData('')).toBe(false);
    expect(isSvgPathData('L1 2')).toBe(false);
    expect(isSvgPathData('M1 2" onload="x')).toBe(false);
    expect(isSvgPathData('M1 2<')).toBe(false);
  });
});

describe('pinStyleKey', () => {
  it('is the same for equal styles, however they were written', () => {
    const a = resolvePinStyle({ markerColor: '#3FB1CE', iconClasses: 'fa fa-star' });
    const b = resolvePinStyle({ iconClasses: ' fa  fa-star', markerStrokeColor: '#3FB1CE' });
    expect(pinStyleKey(a)).toBe(pinStyleKey(b));
    expect(pinStyleKey(a)).toMatch(/^pinmap-pin-[0-9a-f]{16}$/);
  });

  it('differs when any one option differs', () => {
    const options: PinOptions[] = [
      {},
      { iconClasses: 'fa-solid fa-star' },
      { iconColor: '#000000' },
      { iconSize: 20 },
      { iconXOffset: 1 },
      { iconYOffset: 1 },
      { markerColor: '#ff0000' },
      { markerFillOpacity: 0.5 },
      { markerStrokeColor: '#000000' },
      { markerStrokeWidth: 0 },
      { markerPath: 'M16 52L0 0H32Z' },
      { popupAnchor: [0, -40] },
      { scale: 2 },
      { label: '1' },
      { shadow: true },
    ];
    const keys = options.map((o) => pinStyleKey(resolvePinStyle(o)));
    expect(new Set(keys).size).toBe(options.length);
  });
});

describe('contentText', () => {
  it('reads the glyph out of a computed ::before content, leaving out its alternative text', () => {
    expect(contentText('"\uf005" / ""')).toBe('\uf005');
    expect(contentText('"\\f005"')).toBe('\uf005');
    expect(contentText("'a' 'b'")).toBe('ab');
  });

  it('reads nothing out of none, normal or an empty string', () => {
    expect(contentText('none')).toBe('');
    expect(contentText('normal')).toBe('');
    expect(contentText('""')).toBe('');
    expect(contentText('')).toBe('');
  });
});

const pinWith = (id: string, options: Pin['options']): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options });

describe('SharedStyles', () => {
  it('gives every pin of one look the same style object, whether or not the pins share an options object', () => {
    const red = Object.freeze({ markerColor: '#ff0000' });
    const list = [pinWith('a', red), pinWith('b', red), pinWith('c', { markerColor: '#ff0000' }), pinWith('d', { markerColor: '#00ff00' })];
    const styles = new SharedStyles();
    const [a, b, c, d] = list.map((p) => styles.of(p));
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(d).not.toBe(a);
    expect(a?.markerColor).toBe('#ff0000');
    expect(styles.distinct(list)).toEqual(new Set([a, d]));
    expect(new Set([...styles.distinct(list)].map(pinStyleKey)).size).toBe(2);
    // A pin of another set (an archive's look) with the same look gets the same object too.
    expect(styles.of({ options: Object.freeze({ markerColor: '#ff0000' }) })).toBe(a);
  });
});
