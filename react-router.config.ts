import type { Config } from "@react-router/dev/config";

// React Router 8's behaviour, adopted on 7 (8 needs Node 22; we run on 20.19+): docs/decisions/030.
export default {
  ssr: true,
  future: {
    // Loaders and actions get the request as it came (its URL un-normalized: they read `url`), without
    // the two copies of it React Router otherwise makes for every route's loader (docs/decisions/029).
    v8_passThroughRequests: true,
    // Loaders and actions read what the HTTP layer hands them with `context.get(key)` (app/load-context.server.ts).
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
