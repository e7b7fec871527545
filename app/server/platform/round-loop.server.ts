import { logger } from "./logger.server";

export type RoundLoop = { wake: () => void; stop: () => Promise<void> };

/**
 * Runs `round` at once, then again when woken (once more after a round in flight, never two at a time),
 * or after the wait it returns (`intervalMs` when it returns nothing). `stop` waits for the round in flight.
 */
export function roundLoop(
  round: (stopped: () => boolean) => Promise<number | void>,
  intervalMs: number,
  failure: string,
): RoundLoop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const wake = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    let wait = intervalMs;
    running = round(() => stopped)
      .then((next) => void (wait = next ?? intervalMs))
      .catch((error: unknown) => logger.error({ err: error }, failure))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          wake();
        } else timer = setTimeout(wake, wait).unref();
      });
  };
  wake();
  return {
    wake,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
