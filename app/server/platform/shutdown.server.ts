import { endAllStreams } from "~/server/live/breaking-stream.server";
import { closeDatabase } from "~/server/db/db.server";
import type { ShutdownHooks } from "./lifecycle.server";
import { siteOutbox } from "./site-outbox.server";

/** The bundle's side of a graceful stop; server.ts reaches it through the entry module. */
export const shutdownHooks: ShutdownHooks = { endStreams: endAllStreams, stopFollowing: siteOutbox.stop, closeDatabase };
