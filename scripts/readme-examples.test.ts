import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { readmeExamples } from './readme-examples.ts';

test('the README has examples of the React component, the ref and the embed handle, for the type check', () => {
  const readme = readFileSync(join(resolve(import.meta.dirname, '..'), 'README.md'), 'utf8');
  const examples = readmeExamples(readme);
  expect(examples.length).toBeGreaterThanOrEqual(3);
  const all = examples.map((example) => example.code).join('\n');
  for (const part of ['<Pinmap', 'useRef<PinmapRef>', 'viewState=', 'createPinmap(', '.update(']) expect(all).toContain(part);
});

test('a block that does not import the library is not an example', () => {
  const readme = "```tsx\nconst a = 1;\n```\n```ts\nimport { createPinmap } from 'pinmap/embed';\n```\n```json\n{}\n```";
  expect(readmeExamples(readme).map((example) => example.extension)).toEqual(['ts']);
});
