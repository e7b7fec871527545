import { parentPort, workerData } from "node:worker_threads";
import type { ThreadAnswer, ThreadJob, ThreadStart } from "./thread-pool.server";

/** The settings the pool started this thread with (ThreadPoolOptions.workerData). */
export function threadData<T>(): T {
  return (workerData as ThreadStart).data as T;
}

function errorOf(error: unknown): { message: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return { message: String((error as Error | null)?.message ?? error), ...(typeof code === "string" ? { code } : {}) };
}

/**
 * A thread's side of ThreadPool: each job handed to `handle`, its answer (or the error it threw) sent
 * back with the others settled in the same turn, one message for them all.
 */
export function serveJobs<J, A>(handle: (job: J) => A | Promise<A>): void {
  const port = parentPort;
  if (!port) throw new Error("serveJobs runs in a thread that a ThreadPool started");
  let answers: ThreadAnswer<A>[] = [];
  const answer = (settled: ThreadAnswer<A>) => {
    if (answers.length === 0) setImmediate(() => (port.postMessage(answers), (answers = [])));
    answers.push(settled);
  };
  port.on("message", (jobs: ThreadJob<J>[]) => {
    for (const { id, job } of jobs) {
      try {
        const result = handle(job);
        if (result instanceof Promise)
          result.then(
            (settled) => answer({ id, answer: settled }),
            (error: unknown) => answer({ id, error: errorOf(error) }),
          );
        else answer({ id, answer: result });
      } catch (error) {
        answer({ id, error: errorOf(error) });
      }
    }
  });
}
