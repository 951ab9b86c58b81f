import * as z from 'zod/mini';
import { en } from 'zod/locales';

/**
 * zod, as Pinmap's schemas use it: the tree-shakable `zod/mini` build (functions rather than
 * chained methods, so the app carries only the schema kinds and checks it names), with zod's
 * English messages for the few checks that give none of their own.
 *
 * Without its compiled fast path: that path is made with `new Function`, which a strict Content
 * Security Policy forbids, and zod's probe for it is reported as a policy violation even though
 * zod catches the refusal (src/csp.ts). Pinmap's schemas are small; the plain parser is fast
 * enough for them.
 */
z.config({ jitless: true, ...en() });

export { z };
