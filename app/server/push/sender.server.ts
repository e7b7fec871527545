import { logger } from "~/server/platform/logger.server";
import { roundLoop, type RoundLoop } from "~/server/platform/round-loop.server";
import { createSender, type SenderOptions } from "./send-round.server";

/*
 * Sending alerts (decision 037). An alert's deliveries are made once (prepare-alerts: one per matching
 * subscription, in one transaction with the alert's payload); each process that sends (decision 043)
 * then runs rounds (send-round): it claims a few due deliveries at a time under a lease it renews
 * (claims), has its delivery threads encrypt and send them with bounded concurrency, and writes their
 * outcomes together as they come (outcomes), deleting each delivery and counting it on the alert. A
 * round gives back what it did not send; a dead sender's lease lapses and its deliveries are taken again.
 */

/** After the moment a claim lapses, so that it has when the next round looks. */
const LAPSE_MARGIN_MS = 50;

export type PushSender = RoundLoop;

/**
 * Every process that sends runs one: a round at start, then one when woken (an alert was queued), when
 * a delivery it could not take becomes takeable (another sender's claim lapses, a retry is due), or
 * after `intervalMs` at most.
 */
export function startPushSender(options: SenderOptions, intervalMs: number): PushSender {
  const sender = createSender(options);
  const loop = roundLoop(
    async (stopped) => {
      const started = Date.now();
      const { handled, lost, next } = await sender.sendDue(stopped);
      if (handled > 0) logger.info({ handled, ms: Date.now() - started }, "push deliveries handled");
      if (lost > 0)
        logger.warn(
          { lost },
          "push deliveries sent by a sender that stalled past its lease, also sent by the sender that took them",
        );
      if (next)
        return Math.max(0, Math.min(intervalMs, next.getTime() - options.clock.now().getTime() + LAPSE_MARGIN_MS));
    },
    intervalMs,
    "sending push alerts failed",
  );
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      await sender.close();
    },
  };
}
