import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

let ticksPerSecond: number | undefined;

/** User + system CPU time in milliseconds from a /proc stat file (a process's: all its threads; a task's: that thread). */
function statCpuMs(file: string): number {
  // Fields after the command name (which may hold spaces), from its closing parenthesis: utime is the 14th field of the line.
  const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ");
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** A process's user + system CPU time so far, all its threads, in milliseconds (Linux /proc). */
export function cpuTimeMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** User + system CPU time of this process's children that have exited and been waited for, in milliseconds (Linux /proc). */
export function exitedChildrenCpuTimeMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
}

/** Each thread's CPU time so far in milliseconds, by thread id, with its name (Linux /proc); the main thread's id is `pid`. */
export function threadCpuTimesMs(pid: number): Map<number, { name: string; ms: number }> {
  const threads = new Map<number, { name: string; ms: number }>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(task), {
        name: readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim(),
        ms: statCpuMs(`/proc/${pid}/task/${task}/stat`),
      });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** Resident memory of a process now, in bytes (Linux /proc); 0 once it has exited. */
export function residentMemory(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function isNode(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`) === process.execPath;
  } catch {
    return false;
  }
}

/** The Node processes a process started (a cluster primary's workers, not tsx's esbuild), from Linux /proc. */
export function nodeChildPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`)
      .flatMap((task) =>
        readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
      )
      .filter(isNode);
  } catch {
    return [];
  }
}

/** Whether a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The whole machine's CPU time so far, in milliseconds summed over its cores: busy, and stolen by the host (Linux /proc/stat). */
export function machineCpuMs(): { busy: number; steal: number } {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
  const ms = (ticks: number) => (ticks * 1000) / ticksPerSecond!;
  return { busy: ms(user! + nice! + system! + irq! + softirq!), steal: ms(steal!) };
}

/** Linux's scheduling classes (sched.h), as /proc/<pid>/task/<tid>/stat's 41st field names them. */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

/** The distinct scheduling classes of a process's threads. */
export function schedulingPolicies(pid: number): number[] {
  const policies = readdirSync(`/proc/${pid}/task`).map((task) =>
    Number(readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[38]),
  );
  return [...new Set(policies)];
}
