import { ensureBuild } from "../../scripts/ensure-build";
import { DEMO_TEMPLATES, E2E_SERVERS, startServers } from "./servers";

/**
 * Builds the site if a source is newer than the build (the servers run the build), seeds the demo sites
 * once (servers.ts, DEMO_TEMPLATES), for each worker's demo servers to start from copies, and starts the
 * empty site every worker shares; returns what stops it.
 */
export default async function startSharedServers(): Promise<() => Promise<void>> {
  ensureBuild();
  const [stopTemplates, stopEmpty] = await Promise.all([
    startServers(DEMO_TEMPLATES),
    startServers([E2E_SERVERS.empty]),
  ]);
  await stopTemplates();
  return stopEmpty;
}
