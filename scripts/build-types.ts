import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

/**
 * The library's type declarations, one bundled `.d.ts` per entry, beside the entry's JavaScript:
 * `dist/lib/pinmap.d.ts` (`pinmap`) and `dist/lib/pinmap-embed.d.ts` (`pinmap/embed`). Run by
 * `npm run build` after the library builds. The declarations are made from the sources by
 * rollup-plugin-dts, which keeps each declaration's doc comment, so an editor's hover shows it.
 */
const ENTRIES = { pinmap: 'src/index.ts', 'pinmap-embed': 'src/embed.ts' } as const;

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
