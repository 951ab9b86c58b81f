import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * `pinmap/vite`: the one line an app that bundles Pinmap with Vite adds, so that the map's
 * embedded offline basemap is served and built with the app (README, "Using the library"). The
 * rest of what the library needs (its style sheet's fonts, MapLibre's worker, the pin index's
 * worker) Vite finds and copies by itself.
 *
 * This file is built to dist/lib/vite.js, beside the library; the basemap is dist/basemap, and the
 * Protomaps styles config `streets` shows its archive in are dist/protomaps.
 */

/** The package's embedded basemap folder: dist/basemap, beside dist/lib where this file is built to. */
const BASEMAP_DIR = fileURLToPath(new URL('../basemap', import.meta.url));
/** The package's Protomaps styles, fonts and sprite (config `streets`): dist/protomaps, beside it. */
const PROTOMAPS_DIR = fileURLToPath(new URL('../protomaps', import.meta.url));

/**
 * The Vite plugin for apps that use Pinmap. The library finds its embedded basemap at
 * `../basemap/` from its own code, and an app's build puts that code in its assets folder, so:
 * - `vite build` copies the basemap folder to `basemap/` beside the assets folder (`dist/basemap`
 *   with Vite's defaults), and the Protomaps styles' folder to `protomaps/` beside it (config
 *   `streets`);
 * - `vite` (the development server) serves the library from the package, not pre-bundled, so the
 *   same path finds the package's own basemap.
 * An app that always sets `style` to its own basemap does not need the plugin.
 */
export function pinmap(): Plugin {
  let target: string | undefined;
  return {
    name: 'pinmap',
    config: () => ({ optimizeDeps: { exclude: ['pinmap'] } }),
    configResolved(config) {
      target = path.resolve(config.root, config.build.outDir, config.build.assetsDir, '..');
    },
    writeBundle() {
      if (!target) return;
      if (!existsSync(BASEMAP_DIR)) throw new Error(`pinmap: the embedded basemap is missing from the package (${BASEMAP_DIR})`);
      cpSync(BASEMAP_DIR, path.join(target, 'basemap'), { recursive: true });
      // The package ships the styles without the fixture archive they were made over.
      if (existsSync(PROTOMAPS_DIR)) cpSync(PROTOMAPS_DIR, path.join(target, 'protomaps'), { recursive: true, filter: (file) => !file.endsWith('.pmtiles') });
    },
  };
}
