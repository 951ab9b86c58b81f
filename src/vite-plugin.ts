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
 * This file is built to dist/lib/vite.js, beside the library; the basemap is dist/basemap.
 */

/** The package's embedded basemap folder: dist/basemap, beside dist/lib where this file is built to. */
const BASEMAP_DIR = fileURLToPath(new URL('../basemap', import.meta.url));

/**
 * The Vite plugin for apps that use Pinmap. The library finds its embedded basemap at
 * `../basemap/` from its own code, and an app's build puts that code in its assets folder, so:
 * - `vite build` copies the basemap folder to `basemap/` beside the assets folder (`dist/basemap`
 *   with Vite's defaults);
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
      target = path.resolve(config.root, config.build.outDir, config.build.assetsDir, '..', 'basemap');
    },
    writeBundle() {
      if (!target) return;
      if (!existsSync(BASEMAP_DIR)) throw new Error(`pinmap: the embedded basemap is missing from the package (${BASEMAP_DIR})`);
      cpSync(BASEMAP_DIR, target, { recursive: true });
    },
  };
}
