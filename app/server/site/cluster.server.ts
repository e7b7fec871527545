import cluster, { type Worker } from "node:cluster";
import { onStopSignal } from "./lifecycle.server";
import { ROLE_ENV } from "./process-role.server";
import { logger } from "~/server/platform/logger.server";
import { shareStreamAllowances } from "~/server/http/stream-allowance.server";

/** The first pause before a dead worker is replaced; it doubles while replacements keep dying young. */
const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that served this long before it died starts its slot's back-off afresh. */
const STABLE_AFTER_MS = 30_000;
/** After SIGTERM, how much longer than their grace period workers get to finish before they are killed. */
const STOP_MARGIN_MS = 5_000;

export type HelperRole = "views" | "sender";

/** This process's role when the primary forked it as a helper; null in a worker that serves pages, or in a lone process. */
export function helperRole(): HelperRole | null {
  const role = process.env[ROLE_ENV];
  return role === "views" || role === "sender" ? role : null;
}

/** What a process that listens on no port sends its primary once it runs (a worker's "listening" says as much). */
const READY_MESSAGE = "akhbar:ready";

export function reportReady(): void {
  process.send?.(READY_MESSAGE);
}

/** Whether `npm start` runs a cluster: a primary supervising the workers and its helpers. */
export function runsCluster(workers: number, views: boolean): boolean {
  return workers > 1 || views;
}

/** The helpers a cluster's primary forks beside its `workers`; none for one plain process. */
export function helperRoles(workers: number, views: boolean): HelperRole[] {
  if (!runsCluster(workers, views)) return [];
  return views ? ["views", "sender"] : ["sender"];
}

/** The processes that serve the site, the primary aside, as its log names them: "2 workers and the sender process". */
export function processesOf(workers: number, views: boolean): string {
  if (!runsCluster(workers, views)) return "one process";
  return `${workers} worker${workers === 1 ? "" : "s"}${views ? ", the views process" : ""} and the sender process`;
}

type Slot = {
  env: Record<string, string>;
  worker?: Worker;
  ready: boolean;
  startedAt: number;
  restartDelay: number;
  restartTimer?: NodeJS.Timeout;
};

/**
 * The primary of `npm start` with WORKERS > 1 or VIEWS_PORT: forks `count` workers (each runs server.ts and
 * accepts connections itself on the port they share, decision 012; it counts each address's event streams
 * for them), the sender process and, with `views`,
 * the views process; replaces one that dies after a back-off, and on SIGTERM/SIGINT stops
 * them gracefully, then itself. A worker that dies before any worker has served means the server
 * cannot start (port taken, bad build): the primary stops with status 1 instead of looping.
 */
export function superviseWorkers(count: number, views: boolean, graceMs: number): void {
  const slot = (env: Record<string, string>): Slot => ({
    env,
    ready: false,
    startedAt: 0,
    restartDelay: FIRST_RESTART_DELAY_MS,
  });
  const slots: Slot[] = [
    ...Array.from({ length: count }, () => slot({})),
    ...helperRoles(count, views).map((role) => slot({ [ROLE_ENV]: role })),
  ];
  const serving = processesOf(count, views);
  let served = false;
  let stopping = false;

  const livePids = () =>
    slots.flatMap((slot) => (slot.worker && !slot.worker.isDead() ? [slot.worker.process.pid] : []));

  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    for (const slot of slots) clearTimeout(slot.restartTimer);
    const running = slots.flatMap((slot) => (slot.worker && !slot.worker.isDead() ? [slot.worker] : []));
    logger.info(`stopping ${running.length} worker(s): ${running.map((w) => w.process.pid).join(", ")}`);
    const kill = setTimeout(
      () => running.forEach((worker) => worker.process.kill("SIGKILL")),
      graceMs + STOP_MARGIN_MS,
    );
    void Promise.all(
      running.map(
        (worker) => new Promise((resolve) => (worker.isDead() ? resolve(null) : worker.once("exit", resolve))),
      ),
    ).then(() => {
      clearTimeout(kill);
      logger.info("all workers stopped");
      process.exit(exitCode);
    });
    for (const worker of running) worker.process.kill("SIGTERM");
  };

  const start = (slot: Slot) => {
    const worker = cluster.fork(slot.env);
    slot.worker = worker;
    slot.ready = false;
    slot.startedAt = Date.now();
    const ready = () => {
      if (slot.ready) return;
      slot.ready = true;
      if (served) logger.info(`worker ${worker.process.pid} is serving; workers now: ${livePids().join(", ")}`);
      else if (slots.every((s) => s.ready)) {
        served = true;
        logger.info(`${serving} are serving: ${livePids().join(", ")} (primary ${process.pid})`);
      }
    };
    worker.once("listening", ready);
    worker.on("message", (message) => message === READY_MESSAGE && ready());
    worker.once("exit", (code, signal) => {
      slot.ready = false;
      if (stopping) return;
      if (!served) {
        logger.error(
          `worker ${worker.process.pid} stopped (${signal ?? `status ${code}`}) before the server could serve; stopping`,
        );
        stop(1);
        return;
      }
      if (Date.now() - slot.startedAt >= STABLE_AFTER_MS) slot.restartDelay = FIRST_RESTART_DELAY_MS;
      const delay = slot.restartDelay;
      slot.restartDelay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
      logger.warn(
        `worker ${worker.process.pid} died (${signal ?? `status ${code}`}); starting a replacement in ${delay} ms`,
      );
      slot.restartTimer = setTimeout(() => start(slot), delay);
    });
  };

  // Not round-robin: a connection the primary had accepted and was handing to a worker that died was never
  // answered. Workers accept from the socket themselves; one that dies leaves the rest to the others.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  shareStreamAllowances();
  logger.info(`starting ${serving} (primary ${process.pid})`);
  slots.forEach(start);
  onStopSignal(() => stop(0));
}
