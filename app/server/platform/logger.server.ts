import pino from "pino";
import { logLevelOf } from "./config.server";

export const logger = pino({ level: logLevelOf(process.env), base: undefined });
