import type { Config } from "@react-router/dev/config";

// Every flag of React Router 8's behaviour, on while we stay on 7: 8 needs Node 22, and we run on 20.19+.
export default {
  ssr: true,
  future: {
    // Loaders and actions get the request as it came (its URL un-normalized: they read `url`), without
    // the two copies of it React Router otherwise makes for every route's loader (docs/decisions/029).
    v8_passThroughRequests: true,
    // Loaders and actions read their context by key: `context.get(clientIpContext)` (app/load-context.server.ts).
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    // The data request of a path ending in a slash is `…/_.data`, `/_.data` for `/` (accounts/guards.server.ts names their page).
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
