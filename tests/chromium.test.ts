import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureChromium } from './chromium.ts';

/** A finder that knows no Chromium until `installed` is set, as on a machine before the download. */
function machine() {
  const state = { installed: false, installs: 0 };
  const find = () => {
    if (!state.installed) throw new Error('No Chromium found for the browser tests.');
    return '/downloaded/chrome';
  };
  return { state, find };
}

describe('ensureChromium', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('uses the Chromium the machine has, without downloading', () => {
    const install = vi.fn(() => true);
    expect(ensureChromium(() => '/usr/bin/chromium', install)).toBe('/usr/bin/chromium');
    expect(install).not.toHaveBeenCalled();
  });

  it("gets Playwright's Chromium on a machine with none, then uses it", () => {
    const { state, find } = machine();
    const path = ensureChromium(find, () => {
      state.installs++;
      state.installed = true;
      return true;
    });
    expect(path).toBe('/downloaded/chrome');
    expect(state.installs).toBe(1);
  });

  it('gives the finder’s message when the download fails too', () => {
    const { find } = machine();
    expect(() => ensureChromium(find, () => false)).toThrow('No Chromium found for the browser tests.');
  });

  it('does not download in place of a path named in PINMAP_CHROMIUM', () => {
    vi.stubEnv('PINMAP_CHROMIUM', '/nowhere/chrome');
    const install = vi.fn(() => true);
    expect(() => ensureChromium(() => { throw new Error('PINMAP_CHROMIUM is set to /nowhere/chrome, but no file is there.'); }, install)).toThrow('PINMAP_CHROMIUM');
    expect(install).not.toHaveBeenCalled();
  });
});
