import { describe, expect, it } from 'vitest';
import { updatesBaselines } from './update.ts';

describe('updatesBaselines', () => {
  it('is off unless PINMAP_UPDATE_BASELINES is 1', () => {
    expect(updatesBaselines({})).toBe(false);
    expect(updatesBaselines({ PINMAP_UPDATE_BASELINES: '0' })).toBe(false);
    expect(updatesBaselines({ PINMAP_UPDATE_BASELINES: 'yes', CI: 'true' })).toBe(false);
  });

  it('is on with PINMAP_UPDATE_BASELINES=1 off CI (CI unset, empty, false or 0)', () => {
    expect(updatesBaselines({ PINMAP_UPDATE_BASELINES: '1' })).toBe(true);
    for (const CI of ['', 'false', '0']) expect(updatesBaselines({ PINMAP_UPDATE_BASELINES: '1', CI })).toBe(true);
  });

  it('refuses under CI, saying why and what to do instead', () => {
    for (const CI of ['true', '1']) {
      expect(() => updatesBaselines({ PINMAP_UPDATE_BASELINES: '1', CI })).toThrow(
        `PINMAP_UPDATE_BASELINES=1 rewrites every screenshot baseline without comparing it, and CI is set (CI=${CI}): baselines are updated on a developer's machine (npm run visual:update) and committed, never in CI`,
      );
    }
  });
});
