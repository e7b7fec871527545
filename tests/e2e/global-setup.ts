import { DEMO_TEMPLATES, startServers } from "./servers";

/** Seeds the demo sites once (servers.ts, DEMO_TEMPLATES): each worker's demo servers start from copies. */
export default async function seedDemoTemplates(): Promise<void> {
  const stop = await startServers(DEMO_TEMPLATES);
  await stop();
}
