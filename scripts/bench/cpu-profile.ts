/**
 * V8 CPU profiles (`node --cpu-prof`) summed up: the time of each category a bench names, and the
 * functions with the most time of their own. Used by bench:profile and bench:push.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
/** The category of a sample, from its stack (outermost frame first). */
export type Categorize = (stack: ProfileNode[]) => string;

export type ProfileSummary = {
  /** Milliseconds sampled busy (not idle). */
  busyMs: number;
  idleMs: number;
  /** Milliseconds per category, busiest first, idle left out. */
  categories: [string, number][];
  /** Milliseconds of a function's own time, busiest first, idle left out. */
  functions: [string, number][];
};

/**
 * The profiles `--cpu-prof --cpu-prof-dir dir` wrote there, one per thread (named
 * CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile), the main thread's (0) first.
 */
export function readProfiles(dir: string): { thread: number; profile: CpuProfile }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".cpuprofile"))
    .map((file) => ({ thread: Number(/\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1] ?? -1), file }))
    .sort((a, b) => a.thread - b.thread)
    .map(({ thread, file }) => ({
      thread,
      profile: JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile,
    }));
}

const placeOf = (url: string) => url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(build|app)\//, "$1/");

/** The fixed categories every summary shares: the engine's own and the idle time. */
function engineCategory(stack: ProfileNode[]): string | null {
  const own = stack[stack.length - 1]!.callFrame.functionName;
  if (own === "(garbage collector)") return "garbage collection";
  if (own === "(idle)") return "idle";
  if (own === "(program)") return "program (native, unattributed)";
  return null;
}

export function summarizeProfile(profile: CpuProfile, categorize: Categorize): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<number, ProfileNode[]>();
  const stackOf = (id: number) => {
    let stack = stacks.get(id);
    if (stack) return stack;
    stack = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.unshift(byId.get(at)!);
    stacks.set(id, stack);
    return stack;
  };
  const totals = new Map<string, number>();
  const selfTimes = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stack = stackOf(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const name = engineCategory(stack) ?? categorize(stack);
    totals.set(name, (totals.get(name) ?? 0) + ms);
    if (name === "idle") return;
    const own = stack[stack.length - 1]!.callFrame;
    const where = `${own.functionName || "(anonymous)"} ${placeOf(own.url)}`;
    selfTimes.set(where, (selfTimes.get(where) ?? 0) + ms);
  });
  const idleMs = totals.get("idle") ?? 0;
  totals.delete("idle");
  const busiest = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    busyMs: [...totals.values()].reduce((sum, ms) => sum + ms, 0),
    idleMs,
    categories: busiest(totals),
    functions: busiest(selfTimes),
  };
}

/** The summary as lines: the busy share, each category's share, and the `top` busiest functions. */
export function profileLines(summary: ProfileSummary, top = 15): string[] {
  const share = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(1)}%`;
  return [
    `busy ${(summary.busyMs / 1000).toFixed(1)} s, idle ${(summary.idleMs / 1000).toFixed(1)} s; of the busy time:`,
    ...summary.categories.map(([name, ms]) => `  ${name}: ${share(ms)}`),
    "the functions with the most time of their own:",
    ...summary.functions.slice(0, top).map(([where, ms]) => `  ${share(ms)} ${where}`),
  ];
}
