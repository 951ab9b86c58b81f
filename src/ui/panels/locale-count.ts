import type { Locale, LocaleKey } from '../../config/locale.ts';

/** A count in words from the locale table: its singular text for 1, else the plural with `{count}`. */
export function countText(locale: Locale, count: number, plural: LocaleKey, one: LocaleKey): string {
  return count === 1 ? locale[one] : locale[plural].replace('{count}', count.toLocaleString('en-US'));
}
