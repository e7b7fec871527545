// A thread started from the sources: tsx first, then the thread's own module (ThreadPool, from the sources only).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.file);
