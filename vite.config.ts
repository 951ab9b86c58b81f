import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { CONTENT_SECURITY_POLICY } from './src/csp.ts';

/**
 * One config, three builds:
 * - default: the app (index.html) into dist/, with the embedded basemap and other fixtures from
 *   fixtures/ served and copied as static files;
 * - `--mode lib`: dist/lib/pinmap.js, the library for React apps (React stays the host's);
 * - `--mode embed`: dist/lib/pinmap-embed.js, self-contained for any page (`createPinmap`);
 * - `--mode cli`: dist/cli/pinmap-tile-pins.js, the pin tiler for Node (the package's bin), its
 *   dependencies imported from node_modules.
 */
export default defineConfig(({ mode }): UserConfig => {
  const base: UserConfig = {
    plugins: [react()],
    // Relative URLs everywhere: the app and the library work from any folder of any server,
    // and the library finds its MapLibre worker next to itself.
    base: './',
    publicDir: 'fixtures',
    // The production build is served with a strict Content Security Policy (src/csp.ts). The
    // development server has none: its hot reload needs inline scripts.
    preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
    server: { host: '127.0.0.1', port: 5173 },
    build: { sourcemap: true, chunkSizeWarningLimit: 1500 },
  };
  if (mode === 'cli') {
    return {
      build: {
        ssr: 'src/tiler/bin.ts',
        outDir: 'dist/cli',
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'node20',
        minify: false,
        rollupOptions: { output: { entryFileNames: 'pinmap-tile-pins.js', banner: '#!/usr/bin/env node' } },
      },
    };
  }
  if (mode !== 'lib' && mode !== 'embed') return base;
  const embed = mode === 'embed';
  return {
    ...base,
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
        external: embed ? [] : ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'],
        // The code both entries share, and the hybrid view's (loaded only when it is shown).
        output: {
          chunkFileNames: (chunk) => `${embed ? 'pinmap-embed' : 'pinmap'}-${chunk.name === 'hybrid-engine' ? 'hybrid' : 'shared'}-[hash].js`,
        },
      },
    },
  };
});
