import { ThreadPool } from "~/server/platform/thread-pool.server";

/** One message to send: the subscription, the alert's payload and headers, and the VAPID authorization. */
export type DeliveryJob = {
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  ttlSeconds: number;
  urgency: "high" | "normal";
  topic: string;
  authorization: string;
  /** Not started after this moment (ms since the epoch): its claim may have lapsed while it waited for the thread. */
  startBy: number;
};

/**
 * The push service's answer, or why none came: the message was not answered (`error`; `sent` once
 * the request was written whole, so the service may have received it), the endpoint is not a push
 * service on the internet (`refused`), the subscription's keys cannot be encrypted to (`unencryptable`),
 * or the thread reached the job too late to start it (`notStarted`); in the last three nothing was sent.
 */
export type DeliveryAnswer =
  | { status: number; retryAfter: string | null }
  | { error: string; sent: boolean }
  | { refused: string }
  | { unencryptable: string }
  | { notStarted: true };

/**
 * `sockets`: connections per thread. `nice`: each thread's scheduling niceness on Linux (0 to 19; higher
 * yields more to other threads). `loopback`: tests only (TEST_LOOPBACK_PUSH), also send to this machine,
 * where their push service runs.
 */
export type DeliveryThreadSettings = { sockets: number; timeoutMs: number; nice: number; loopback: boolean };

/**
 * Threads of their own that encrypt and send push messages (delivery.thread.server.ts), so neither the
 * cryptography nor the HTTP client takes turns from the event loop that renders pages (decision 037).
 * Jobs handed over in one turn travel to a thread as one message, their answers back the same way.
 */
export class DeliveryThreads {
  private readonly pool: ThreadPool<DeliveryJob, DeliveryAnswer>;

  constructor(size: number, settings: DeliveryThreadSettings) {
    this.pool = new ThreadPool({ thread: "push/delivery", size, workerData: settings });
  }

  deliver(job: DeliveryJob): Promise<DeliveryAnswer> {
    return this.pool.run(job);
  }

  /** Ends the threads and their connections; jobs they still hold are refused. The next job starts another. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
