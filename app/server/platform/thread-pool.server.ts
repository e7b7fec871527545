import { Worker } from "node:worker_threads";

/** What goes to a thread: jobs handed over in the same turn travel as one message. */
export type ThreadJob<J> = { id: number; job: J };
/** What comes back, in groups too: a job's answer, or the error its handler threw (its message, and a code such as SQLite's). */
export type ThreadAnswer<A> = { id: number; answer: A } | { id: number; error: { message: string; code?: string } };

/** Run by tsx from the sources (tests, `npm run dev`), or from the build, where each thread is a file of its own. */
const FROM_SOURCE = import.meta.url.endsWith(".ts");

/**
 * The file thread `name` runs, named by its path under app/server: "http/compression" is the module
 * app/server/http/compression.thread.server.ts, which the build writes as build/server/threads/http/compression.js
 * (vite-plugins/thread-entries.ts).
 */
export function threadFile(name: string): URL {
  return FROM_SOURCE
    ? new URL(`../${name}.thread.server.ts`, import.meta.url)
    : new URL(`./threads/${name}.js`, import.meta.url);
}

type Pending<A> = { resolve: (answer: A) => void; reject: (error: Error) => void };
type Thread<J, A> = {
  worker: Worker;
  serial: number;
  pending: Map<number, Pending<A>>;
  queued: ThreadJob<J>[];
  closing: boolean;
};
/** What every thread is started with: its module, and its own settings (`threadData()` in the thread). */
export type ThreadStart = { file: string; data: unknown };

export type ThreadPoolOptions = {
  /** The thread's module, by its path under app/server (see `threadFile`). */
  thread: string;
  size: number;
  /** What the thread reads as `threadData()`. */
  workerData?: unknown;
};

function errorOf({ message, code }: { message: string; code?: string }): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/**
 * `size` threads running one module, jobs given to them in turn. A thread starts with its first job; one
 * that fails or exits refuses the jobs it holds with its error, and the next job starts another. A thread
 * keeps the process alive only while it owes an answer.
 */
export class ThreadPool<J, A> {
  private readonly threads: (Thread<J, A> | undefined)[];
  private turn = 0;
  private lastId = 0;
  private starts = 0;
  private readonly label: string;

  constructor(private readonly options: ThreadPoolOptions) {
    const { size, thread } = options;
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`the ${thread} threads need at least one thread, not ${size}`);
    this.threads = Array.from({ length: size }, () => undefined);
    this.label = thread.replace("/", " ");
  }

  /** Runs `job` on the next thread in turn, or on thread `index`. */
  run(job: J, index = this.turn++ % this.threads.length): Promise<A> {
    const thread = (this.threads[index] ??= this.start(index));
    const id = ++this.lastId;
    if (thread.pending.size === 0) thread.worker.ref();
    if (thread.queued.length === 0) process.nextTick(() => this.flush(thread));
    thread.queued.push({ id, job });
    return new Promise((resolve, reject) => thread.pending.set(id, { resolve, reject }));
  }

  /** Which start of thread `index` is running now (they count from 1), or undefined while none is. */
  running(index = 0): number | undefined {
    return this.threads[index]?.serial;
  }

  /** Ends every thread now, refusing the jobs they hold; a later job starts a new one. */
  async close(): Promise<void> {
    const running = this.threads.splice(0, this.threads.length, ...this.threads.map(() => undefined));
    await Promise.all(
      running.map((thread) => {
        if (!thread) return;
        thread.closing = true;
        return thread.worker.terminate();
      }),
    );
  }

  private flush(thread: Thread<J, A>): void {
    if (thread.queued.length === 0) return;
    thread.worker.postMessage(thread.queued);
    thread.queued = [];
  }

  private start(index: number): Thread<J, A> {
    const file = threadFile(this.options.thread);
    const workerData: ThreadStart = { file: file.href, data: this.options.workerData };
    // From the sources the thread's module is TypeScript: tsx-thread.mjs registers tsx in the thread, then imports it.
    const worker = new Worker(FROM_SOURCE ? new URL("./tsx-thread.mjs", import.meta.url) : file, { workerData });
    const thread: Thread<J, A> = { worker, serial: ++this.starts, pending: new Map(), queued: [], closing: false };
    worker.unref();
    worker.on("message", (answers: ThreadAnswer<A>[]) => {
      for (const answer of answers) {
        const pending = thread.pending.get(answer.id);
        thread.pending.delete(answer.id);
        if ("error" in answer) pending?.reject(errorOf(answer.error));
        else pending?.resolve(answer.answer);
      }
      if (thread.pending.size === 0) worker.unref();
    });
    const stopped = (error: Error) => {
      if (this.threads[index] === thread) this.threads[index] = undefined;
      this.refuse(thread, error);
    };
    worker.on("error", stopped);
    worker.on("exit", (code) =>
      stopped(
        new Error(
          thread.closing ? `the ${this.label} thread was closed` : `the ${this.label} thread exited with ${code}`,
        ),
      ),
    );
    return thread;
  }

  private refuse(thread: Thread<J, A>, error: Error): void {
    for (const { reject } of thread.pending.values()) reject(error);
    thread.pending.clear();
    thread.queued = [];
  }
}
