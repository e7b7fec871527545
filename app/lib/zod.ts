import * as z from "./zod-with-text-rules";

// Zod compiles object parsers with `new Function`, which the Content-Security-Policy forbids (no
// 'unsafe-eval'), and even its probe for eval is reported as a violation. Code that runs in the
// browser imports z from here, so this is set before any schema is made.
z.config({ jitless: true });

export { z };
