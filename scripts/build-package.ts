import { readFileSync, writeFileSync } from 'node:fs';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import ts from 'typescript';

/**
 * What `npm run build` adds to the library once Vite has built it (dist/lib):
 * - the type declarations, one bundled `.d.ts` per entry beside the entry's JavaScript:
 *   `pinmap.d.ts` (`pinmap`), `pinmap-embed.d.ts` (`pinmap/embed`) and `vite.d.ts`
 *   (`pinmap/vite`). rollup-plugin-dts makes them from the sources and keeps each declaration's
 *   doc comment, so an editor's hover shows it;
 * - `vite.js`, the Vite plugin for apps (src/vite-plugin.ts), which runs in Node: one module,
 *   so TypeScript's own transpiler is all it needs.
 */
const ENTRIES = { pinmap: 'src/index.ts', 'pinmap-embed': 'src/embed.ts', vite: 'src/vite-plugin.ts' } as const;

for (const [name, input] of Object.entries(ENTRIES)) {
  const bundle = await rollup({
    input,
    plugins: [dts({ tsconfig: 'tsconfig.json', compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true } })],
    // A style sheet imported for its side effect has no types to bundle.
    external: (id) => /\.css$/.test(id),
  });
  await bundle.write({ file: `dist/lib/${name}.d.ts`, format: 'es' });
  await bundle.close();
  referGeoJsonTypes(`dist/lib/${name}.d.ts`);
  console.log(`dist/lib/${name}.d.ts`);
}

/**
 * MapLibre's types (the ref's `getMap()` returns its `Map`) use the global `GeoJSON` namespace of
 * @types/geojson, a dependency of maplibre-gl, without referring to it; an app whose tsconfig
 * lists its `types` (as Vite's templates do) then cannot find it. A declaration file that imports
 * from maplibre-gl refers to it itself, so no app has to.
 */
function referGeoJsonTypes(file: string): void {
  const text = readFileSync(file, 'utf8');
  if (/from 'maplibre-gl'/.test(text)) writeFileSync(file, `/// <reference types="geojson" />\n${text}`);
}

const plugin = ts.transpileModule(readFileSync('src/vite-plugin.ts', 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
});
writeFileSync('dist/lib/vite.js', plugin.outputText);
console.log('dist/lib/vite.js');
