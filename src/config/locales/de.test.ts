import { describe, expect, it } from 'vitest';
import { parseConfig } from '../schema.ts';
import { DEFAULT_LOCALE, LOCALE_KEYS } from '../locale.ts';
import { pinmapLocaleDe } from './de.ts';

describe('the German locale', () => {
  it('has a text for every key of the locale table, and no key the table does not know', () => {
    // Keys added to DEFAULT_LOCALE (new controls, panels) must be translated here too.
    const missing = LOCALE_KEYS.filter((key) => !(key in pinmapLocaleDe));
    const unknown = Object.keys(pinmapLocaleDe).filter((key) => !(key in DEFAULT_LOCALE));
    expect(missing, 'keys without a German text').toEqual([]);
    expect(unknown, 'keys the locale table does not have').toEqual([]);
  });

  it('has no empty text, keeps every {placeholder} of the English text, and is translated where English words stand', () => {
    for (const key of LOCALE_KEYS) {
      const german = pinmapLocaleDe[key];
      expect(german.trim(), key).not.toBe('');
      const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();
      expect(placeholders(german), key).toEqual(placeholders(DEFAULT_LOCALE[key]));
    }
    const sameAsEnglish = LOCALE_KEYS.filter((key) => pinmapLocaleDe[key] === DEFAULT_LOCALE[key]);
    // Only unit symbols and the word "Hybrid" read the same in both languages.
    expect(sameAsEnglish.sort()).toEqual(['ScaleControl.Feet', 'ScaleControl.Kilometers', 'ScaleControl.Meters', 'ScaleControl.Miles', 'ViewControl.Hybrid'].sort());
  });

  it('is a valid config locale as it is', () => {
    expect(parseConfig({ locale: pinmapLocaleDe }).locale).toEqual(pinmapLocaleDe);
  });
});
