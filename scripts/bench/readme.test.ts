import { describe, expect, it } from 'vitest';
import { replaceBetweenMarkers } from './readme.ts';

describe('replaceBetweenMarkers', () => {
  it('replaces what stands between the markers and keeps them', () => {
    const text = 'before\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter';
    expect(replaceBetweenMarkers(text, 'bench', '| new |\n')).toBe('before\n<!-- bench:start -->\n| new |\n<!-- bench:end -->\nafter');
  });

  it('throws when the markers are missing or out of order', () => {
    expect(() => replaceBetweenMarkers('no markers', 'bench', 'x')).toThrow('<!-- bench:start -->');
    expect(() => replaceBetweenMarkers('<!-- bench:end --> <!-- bench:start -->', 'bench', 'x')).toThrow();
  });
});
