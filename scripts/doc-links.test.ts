import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link in the project's Markdown documents leads somewhere: the file or folder
 * exists, and a `#fragment` names a heading of the document it points into (as GitHub makes
 * heading anchors). Links to other sites are not followed.
 */

const ROOT = resolve(import.meta.dirname, '..');

/** The documents people read: the README, the contributor and architecture guides, the history. */
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'bench/HISTORY.md', 'scripts/bench/README.md', 'examples/tile-server/README.md', ...markdownIn('docs')];

function markdownIn(folder: string): string[] {
  const path = join(ROOT, folder);
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (outside code blocks), a repeated one numbered as GitHub does. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (inCode || !heading) continue;
    const anchor = headingAnchor(heading[1]!);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  return anchors;
}

/** The relative link targets of a Markdown text (inline links and images, outside code blocks and code spans). */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of `document` (a path from the root), or nothing. */
function brokenLinks(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  return relativeLinks(text).flatMap((link) => {
    const [path = '', fragment] = link.split('#');
    const target = path === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), decodeURI(path));
    if (!existsSync(target)) return [`${link}: no ${relative(ROOT, target)}`];
    if (fragment === undefined) return [];
    if (statSync(target).isDirectory() || !target.endsWith('.md')) return [`${link}: a fragment into what is not a Markdown file`];
    return anchorsOf(readFileSync(target, 'utf8')).has(fragment) ? [] : [`${link}: ${relative(ROOT, target)} has no heading #${fragment}`];
  });
}

describe('links in the documents', () => {
  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('Pin panels: list, legend, search')).toBe('pin-panels-list-legend-search');
    expect(headingAnchor('Tiling 1,000,000 pins')).toBe('tiling-1000000-pins');
    expect(headingAnchor('The `PinLayer` contract')).toBe('the-pinlayer-contract');
    expect([...anchorsOf('# A\n## Notes\n```\n# not a heading\n```\n### Notes')]).toEqual(['a', 'notes', 'notes-1']);
    expect(relativeLinks('[a](b.md#c) [web](https://x.org) `[no](code.md)` ![img](docs/p.png)')).toEqual(['b.md#c', 'docs/p.png']);
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every relative link leads to a file and heading that exist`, () => {
      expect(brokenLinks(document)).toEqual([]);
    });
  }
});
