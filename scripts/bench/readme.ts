/**
 * Replaces what stands between `<!-- NAME:start -->` and `<!-- NAME:end -->` in `text` with
 * `content` (the markers stay). Throws when the markers are missing or out of order, so a
 * README that lost them is noticed rather than left stale.
 */
export function replaceBetweenMarkers(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0 || to < from) throw new Error(`the text has no ${start} … ${end} block`);
  return `${text.slice(0, from + start.length)}\n${content.trim()}\n${text.slice(to)}`;
}
