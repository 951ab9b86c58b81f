import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerTarget, initialChunks, renderConsumer, withoutAppMaplibre, type ConsumerFigures, type ManifestChunk } from './consumer.ts';

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-B2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C3.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

const MANIFEST: Record<string, ManifestChunk> = {
  'index.html': { file: 'assets/index-A1.js', isEntry: true, imports: ['_react-B2.js', '_maplibre-D4.js'], dynamicImports: ['node_modules/pinmap/dist/lib/pinmap-hybrid.js'] },
  '_react-B2.js': { file: 'assets/react-B2.js' },
  // Imported statically by a chunk the page imports statically, though no link names it.
  '_maplibre-D4.js': { file: 'assets/maplibre-D4.js', imports: ['_shared-E5.js'] },
  '_shared-E5.js': { file: 'assets/shared-E5.js', imports: ['_react-B2.js'] },
  // Only behind a dynamic import: not initial, nor what it imports.
  'node_modules/pinmap/dist/lib/pinmap-hybrid.js': { file: 'assets/pinmap-hybrid-F6.js', imports: ['_leaflet-G7.js'] },
  '_leaflet-G7.js': { file: 'assets/leaflet-G7.js' },
};

describe('MapLibre shared with the app (--consumer)', () => {
  it("takes index.html's scripts and modulepreloads and what they import statically, not what is imported dynamically", () => {
    expect(initialChunks(HTML, MANIFEST)).toEqual(['assets/index-A1.js', 'assets/react-B2.js', 'assets/maplibre-D4.js', 'assets/shared-E5.js']);
  });

  it('fails loudly when the page loads no module script or a file the manifest does not know', () => {
    expect(() => initialChunks('<html><script src="/x.js"></script></html>', MANIFEST)).toThrow('no module script');
    expect(() => initialChunks('<script type="module" src="./assets/other.js"></script>', MANIFEST)).toThrow('assets/other.js, which is not in');
  });

  it("takes the app's own maplibre-gl import and what uses it out of tests/consumer's main.tsx, and nothing else", () => {
    const source = readFileSync(join(import.meta.dirname, '../../tests/consumer/src/main.tsx'), 'utf8');
    const edited = withoutAppMaplibre(source);
    expect(edited).not.toMatch(/maplibre-gl|AppMap/);
    expect(edited).toContain("import { maplibre, Pinmap, type PinmapConfigInput, type PinmapRef } from 'pinmap';");
    expect(edited).toContain('document.body.dataset.sameMaplibre = String(target.getMap() instanceof maplibre.Map);');
    expect(source.split('\n').length - edited.split('\n').length).toBe(3);
  });

  it('fails loudly when the expected import is not there, or the app still uses maplibre-gl after', () => {
    expect(() => withoutAppMaplibre("import { Map } from 'maplibre-gl';\nnew Map();\n")).toThrow(/expected the line "import \{ Map as AppMap \} from 'maplibre-gl';" once, found it 0 times/);
    const twice = [
      "import { Map as AppMap } from 'maplibre-gl';",
      "import { Popup } from 'maplibre-gl';",
      "  // The app's own `maplibre-gl` is that MapLibre too: one copy, whose settings reach Pinmap's maps.",
      '  document.body.dataset.appMaplibre = String(target.getMap() instanceof AppMap);',
    ].join('\n');
    expect(() => withoutAppMaplibre(twice)).toThrow('still uses its own maplibre-gl');
  });

  const figures = (a: number[], b: number[]): ConsumerFigures => ({
    withAppImport: { files: a.map((gzipBytes, i) => ({ file: `assets/a${i}.js`, bytes: gzipBytes * 3, gzipBytes })), copies: 1 },
    pinmapOnly: { files: b.map((gzipBytes, i) => ({ file: `assets/b${i}.js`, bytes: gzipBytes * 3, gzipBytes })), copies: 1 },
  });

  it('judges A over B against 1.05×, summing each build’s initial files', () => {
    expect(consumerTarget(figures([102_400, 2048], [102_400]))).toMatchObject({ figure: '1.020× (102.0 KB vs 100.0 KB)', met: true });
    expect(consumerTarget(figures([1050], [1000])).met).toBe(true);
    expect(consumerTarget(figures([1051], [1000]))).toMatchObject({ figure: '1.051× (1.0 KB vs 1.0 KB)', met: false });
    expect(() => consumerTarget(figures([1000], []))).toThrow('no initial JavaScript');
  });

  it('writes the figure, the verdict, each build’s copies and files', () => {
    const text = renderConsumer({ ...figures([204_800], [102_400]), withAppImport: { files: [{ file: 'assets/index-A1.js', bytes: 614_400, gzipBytes: 204_800 }], copies: 2 } }, 'Built on a test.');
    expect(text).toContain('≤ 1.05× the same app with one MapLibre (Pinmap\'s): 2.000× (200.0 KB vs 100.0 KB), **missed**.');
    expect(text).toContain("| A: the app with its own `maplibre-gl` import | 200.0 KB | 2 |");
    expect(text).toContain("| B: the same without it (Pinmap's MapLibre only) | 100.0 KB | 1 |");
    expect(text).toContain('| A | `assets/index-A1.js` | 600.0 KB | 200.0 KB |');
    expect(text).toContain('| B | `assets/b0.js` | 300.0 KB | 100.0 KB |');
    expect(text).toContain('Built on a test.');
  });
});
