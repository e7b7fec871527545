import { ensureBuild } from "./ensure-build";

/** Vitest's global set-up: the build the test servers run, made if it is missing or older than a source. */
export default function setup(): void {
  ensureBuild();
}
