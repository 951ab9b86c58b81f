import { z } from 'zod';

/**
 * zod, as Pinmap's schemas use it: without its compiled fast path. That path is made with
 * `new Function`, which a strict Content Security Policy forbids, and zod's probe for it is
 * reported as a policy violation even though zod catches the refusal (src/csp.ts). Pinmap's
 * schemas are small; the plain parser is fast enough for them.
 */
z.config({ jitless: true });

export { z };
