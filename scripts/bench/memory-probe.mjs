// Loaded into the server by `npm run bench:memory` (NODE_OPTIONS=--import): writes the process's
// memory to MEMORY_PROBE_FILE every half second, so the bench reads the heap as well as the RSS.
import { writeFileSync } from "node:fs";

const file = process.env.MEMORY_PROBE_FILE;
if (file) setInterval(() => writeFileSync(file, JSON.stringify(process.memoryUsage())), 500).unref();
