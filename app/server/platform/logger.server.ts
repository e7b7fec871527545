import cluster from "node:cluster";
import pino from "pino";
import { logLevelOf } from "./config.server";

/** A cluster worker's lines carry its pid, so an operator can tell the workers apart. */
export const logger = pino({
  level: logLevelOf(process.env),
  base: cluster.isWorker ? { pid: process.pid } : undefined,
});
