import { describe, expect, it } from 'vitest';
import { BAD_CONFIGS, show, type BadConfig } from '../testing/config-corpus.testing.ts';
import { parseConfig, safeParseConfig, type ConfigProblem } from './schema.ts';

/**
 * The corpus of bad configs (`config-corpus.testing.ts`): `safeParseConfig` never throws; for
 * every entry it refuses the config with a problem naming each listed option (and, when given,
 * saying the fragment), and every problem says what is wrong in words.
 */

/** What is wrong with how a bad config was handled, or undefined when it was refused as it must be. */
function mishandled([input, options, message]: BadConfig): string | undefined {
  let result: ReturnType<typeof safeParseConfig>;
  try {
    result = safeParseConfig(input);
  } catch (error) {
    return `safeParseConfig threw ${String(error)}`;
  }
  if (result.ok) return 'it was accepted';
  const problems: ConfigProblem[] = result.error.problems;
  for (const option of typeof options === 'string' ? [options] : options) {
    const named = problems.filter((p) => p.option === option);
    if (named.length === 0) return `no problem names ${option} (${JSON.stringify(problems)})`;
    if (message !== undefined && !named.some((p) => p.message.includes(message))) return `${option} is not told "${message}" (${JSON.stringify(named)})`;
  }
  const wordless = problems.find((p) => p.option === '' || p.message.length < 8);
  if (wordless) return `a problem says too little: ${JSON.stringify(wordless)}`;
  return undefined;
}

const entries = Object.values(BAD_CONFIGS).flat();

describe.each(Object.entries(BAD_CONFIGS))('bad configs: %s', (_group, rows) => {
  it.each(rows.map((row) => ({ name: show(row[0]), row })))('$name', ({ row }) => {
    expect(mishandled(row)).toBeUndefined();
    expect(() => parseConfig(row[0])).toThrow(/^Invalid Pinmap config: /);
  });
});

describe('the config corpus', () => {
  it('covers every top-level option with a wrong type', () => {
    const wrongTypes = BAD_CONFIGS['a wrong type for each top-level option'] ?? [];
    const covered = new Set(wrongTypes.flatMap(([input]) => Object.keys(input as object)));
    const optionsWithDefaults = Object.keys(parseConfig({}));
    const optionalOptions = ['style', 'accessToken', 'providerOrigin', 'accessTokenHeader', 'pixelRatio', 'pins', 'openPin', 'darkStyle'];
    for (const option of [...optionsWithDefaults, ...optionalOptions]) expect(covered, option).toContain(option);
  });

  it('refuses every entry with the option named, and says how many', () => {
    const refused = entries.filter((row) => mishandled(row) === undefined);
    console.log(`config corpus: ${entries.length} bad configs, ${refused.length} rejected with the option named`);
    expect(entries.length).toBeGreaterThanOrEqual(40);
    expect(refused.length).toBe(entries.length);
  });
});
