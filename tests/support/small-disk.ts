import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type SmallDisk = {
  dir: string;
  readOnly: () => void;
  writable: () => void;
  /** Unmounts and removes the mount point; safe to call twice. */
  remove: () => void;
};

/**
 * A real, tiny file system (tmpfs) mounted on a fresh folder, for full-disk and read-only tests.
 * Needs root (mount); the tests run as root in CI and in the development container.
 */
export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-small-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir]);
  let mounted = true;
  return {
    dir,
    readOnly: () => execFileSync("mount", ["-o", "remount,ro", dir]),
    writable: () => execFileSync("mount", ["-o", "remount,rw", dir]),
    remove: () => {
      if (mounted) execFileSync("umount", [dir]);
      mounted = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
