import { readFileSync, readlinkSync } from "node:fs";

/**
 * This process as a claim names it: its pid, after the machine (its boot) and the pid namespace it
 * runs in, so a sender on the same machine can tell a dead holder; the pid alone elsewhere.
 */
export const PROCESS = (() => {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const namespace = /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1];
    return namespace ? `${boot}/${namespace}/${process.pid}` : String(process.pid);
  } catch {
    return String(process.pid);
  }
})();

/** What every holder of this machine and pid namespace begins with; empty where that cannot be told. */
export const HERE = PROCESS.slice(0, PROCESS.lastIndexOf("/") + 1);

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Among holders of this machine (`<HERE><pid>:<lease>`), those whose process no longer runs. */
export function goneHolders(holders: string[]): string[] {
  return holders.filter((holder) => isGone(Number(holder.slice(HERE.length).split(":")[0])));
}
