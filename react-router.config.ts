import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    // Loaders and actions get the request as it came (its URL un-normalized: they read `url`), without
    // the two copies of it React Router otherwise makes for every route's loader (docs/decisions/029).
    v8_passThroughRequests: true,
  },
} satisfies Config;
