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
  console.log(`dist/lib/${name}.d.ts`);
}

const plugin = ts.transpileModule(readFileSync('src/vite-plugin.ts', 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
});
writeFileSync('dist/lib/vite.js', plugin.outputText);
console.log('dist/lib/vite.js');
