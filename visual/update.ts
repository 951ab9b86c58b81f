/**
 * Whether this run rewrites the screenshot baselines (`PINMAP_UPDATE_BASELINES=1`, as
 * `npm run visual:update` sets): every baseline is then written without being compared, so it is
 * refused where `CI` is set, with an error that says so.
 */
export function updatesBaselines(env: Record<string, string | undefined>): boolean {
  if (env.PINMAP_UPDATE_BASELINES !== '1') return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') {
    throw new Error(
      `PINMAP_UPDATE_BASELINES=1 rewrites every screenshot baseline without comparing it, and CI is set (CI=${env.CI}): baselines are updated on a developer's machine (npm run visual:update) and committed, never in CI`,
    );
  }
  return true;
}
