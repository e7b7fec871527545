import { ensureBuild } from "./ensure-build";

ensureBuild();
await import("../server.ts");
