import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The README's code examples as files, so that `npm run typecheck` compiles them with the rest:
 * every ```tsx and ```ts block that imports the library becomes `tests/readme-examples/example-N.tsx`
 * (not committed). `tsconfig.json` maps `pinmap` and `pinmap/embed` to the library's source.
 */

/** The README's examples that import the library, in order. */
export function readmeExamples(readme: string): { extension: string; code: string }[] {
  return [...readme.matchAll(/```(tsx?)\n([\s\S]*?)```/g)]
    .map((match) => ({ extension: match[1]!, code: match[2]! }))
    .filter((example) => /from 'pinmap(\/embed)?'/.test(example.code));
}

export const EXAMPLES_FOLDER = 'tests/readme-examples';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(import.meta.dirname, '..');
  const folder = join(root, EXAMPLES_FOLDER);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  const examples = readmeExamples(readFileSync(join(root, 'README.md'), 'utf8'));
  examples.forEach((example, index) => {
    // Each example is a module of its own (the embed example awaits at the top level).
    writeFileSync(join(folder, `example-${index + 1}.${example.extension}`), `${example.code}\nexport {};\n`);
  });
  console.log(`${examples.length} README examples written to ${EXAMPLES_FOLDER}/ for the type check`);
}
