import react from '@vitejs/plugin-react';
import { defineConfig, esmExternalRequirePlugin, type Plugin, type UserConfig } from 'vite';
import { CONTENT_SECURITY_POLICY } from './src/config/csp.ts';

/**
 * One config, three builds:
 * - default: the app (index.html) into dist/, with the embedded basemap and other fixtures from
 *   fixtures/ served and copied as static files;
 * - `--mode lib`: dist/lib/pinmap.js, the library for React apps (React and MapLibre stay the host's);
 * - `--mode embed`: dist/lib/pinmap-embed.js, self-contained for any page (`createPinmap`);
 * - `--mode cli`: dist/cli/pinmap.js (`pinmap serve`, `pinmap tile`) and dist/cli/pinmap-tile-pins.js
 *   (the tiler alone), the package's bins for Node, with the grouping's worker thread and their
 *   shared chunks beside them, their dependencies bundled in.
 */
/**
 * Vite's library builds inline every asset as a `data:` URL, whatever `assetsInlineLimit` says,
 * which made the library's style sheet carry every font (Font Awesome, Noto Sans: about 1.2 MB).
 * Marking the style sheets' font URLs `?no-inline` makes them files in dist/lib/assets/, beside
 * the style sheet, which a browser fetches only when a page uses the font (and only the subsets
 * it needs), and which a host's bundler copies like any other asset of a style sheet.
 */
function fontFiles(): Plugin {
  return {
    name: 'pinmap:font-files',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.css($|\?)/.test(id)) return undefined;
      const marked = code.replace(/url\((['"]?)([^'")?#]+\.(?:woff2?|ttf|otf|eot))\1\)/g, 'url($1$2?no-inline$1)');
      return marked === code ? undefined : { code: marked, map: null };
    },
  };
}

/**
 * The names of the code split off the entry, for what it is rather than for its file (several
 * rooms have an `engine.ts` or a `pins.ts`): the hybrid view's engine, the vector view's pins, the
 * pin drawing (the legend's). Others keep their file's name (`pin-source`, `panels`, …).
 */
const CHUNK_NAMES: Record<string, string> = {
  'src/map/hybrid/engine.ts': 'hybrid-engine',
  'src/map/vector/pins.ts': 'vector-pins',
  'src/pins/icon.ts': 'pin-icon',
};

function chunkName(chunk: { name: string; facadeModuleId: string | null; moduleIds: readonly string[] }): string {
  const module = chunk.facadeModuleId ?? (chunk.moduleIds.length === 1 ? chunk.moduleIds[0] : undefined);
  const path = module?.replace(/\\/g, '/').split('/src/').pop();
  return (path && CHUNK_NAMES[`src/${path}`]) || chunk.name;
}

export default defineConfig(({ mode }): UserConfig => {
  const base: UserConfig = {
    plugins: [react()],
    // Relative URLs everywhere: the app and the library work from any folder of any server,
    // and the library finds its MapLibre worker next to itself.
    base: './',
    publicDir: 'fixtures',
    // The production build is served with a strict Content Security Policy (src/config/csp.ts). The
    // development server has none: its hot reload needs inline scripts.
    preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
    server: { host: '127.0.0.1', port: 5173 },
    build: { sourcemap: true, chunkSizeWarningLimit: 1500, rollupOptions: { output: { chunkFileNames: (chunk) => `assets/${chunkName(chunk)}-[hash].js` } } },
  };
  if (mode === 'cli') {
    return {
      // Self-contained like the library: the package's runtime libraries are bundled in, so the
      // installed bin needs nothing beyond Node.
      ssr: { noExternal: true },
      build: {
        // The command, and the grouping's worker thread beside it (zoom-groups.ts finds it there).
        ssr: true,
        outDir: 'dist/cli',
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'node20',
        minify: false,
        rollupOptions: {
          input: { pinmap: 'src/cli/bin.ts', 'pinmap-tile-pins': 'src/tiler/bin.ts', 'zoom-groups-worker': 'src/tiler/zoom-groups-worker.ts' },
          output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', banner: (chunk) => (chunk.name === 'pinmap' || chunk.name === 'pinmap-tile-pins' ? '#!/usr/bin/env node' : '') },
        },
      },
    };
  }
  if (mode !== 'lib' && mode !== 'embed') return base;
  const embed = mode === 'embed';
  // React and MapLibre stay the host app's in the React library (not in the self-contained
  // embed): an app that imports `maplibre-gl` itself ships one copy, and its global settings
  // (`addProtocol`…) reach Pinmap's maps. MapLibre's style sheet and worker file stay the library's.
  const external = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'maplibre-gl'];
  return {
    ...base,
    // React is external through this plugin rather than `rollupOptions.external`: CommonJS code
    // among the dependencies (use-sync-external-store, under @xstate/react) calls
    // `require('react')`, which must become an import, or the library throws "Calling `require`
    // for "react"" in the browser of every app that uses it.
    plugins: [...base.plugins!, fontFiles(), ...(embed ? [] : [esmExternalRequirePlugin({ external })])],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ...base.build,
      outDir: 'dist/lib',
      emptyOutDir: !embed,
      minify: true,
      copyPublicDir: false,
      lib: {
        entry: embed ? 'src/embed.ts' : 'src/index.ts',
        formats: ['es'],
        fileName: () => (embed ? 'pinmap-embed.js' : 'pinmap.js'),
        cssFileName: 'pinmap',
      },
      rollupOptions: {
        // The code split off the entry: what is loaded only when needed is named for what it
        // is (the hybrid view, the pins, the pin panels), the rest is shared.
        output: {
          chunkFileNames: (chunk) => `${embed ? 'pinmap-embed' : 'pinmap'}-${chunkName(chunk) === 'hybrid-engine' ? 'hybrid' : chunk.isDynamicEntry ? chunkName(chunk) : 'shared'}-[hash].js`,
          // The style sheet stays dist/lib/pinmap.css; its fonts and MapLibre's worker go beside it in assets/.
          assetFileNames: (asset) => (asset.names.some((name) => name.endsWith('.css')) ? '[name][extname]' : 'assets/[name]-[hash][extname]'),
        },
      },
    },
  };
});
