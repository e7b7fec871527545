/** A Server-Sent Events client over fetch, for tests against the real server. */
export type SseMessage = { id?: string; data: unknown };

/** One event block of a stream: its fields as sent (a comment-only block has none). */
export type SseBlock = { id?: string; retry?: number; data?: string };

/** Splits a stream's text, fed as it arrives, into event blocks, and hands each whole one to `onBlock`. */
export function createSseParser(onBlock: (block: SseBlock) => void): (chunk: string) => void {
  let buffer = "";
  return (chunk) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
      const retry = lines.find((l) => l.startsWith("retry: "))?.slice(7);
      onBlock({
        id: lines.find((l) => l.startsWith("id: "))?.slice(4),
        retry: retry === undefined ? undefined : Number(retry),
        data: data.length > 0 ? data.join("\n") : undefined,
      });
    }
  };
}

export type SseClient = {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  /** Waits until `count` messages have arrived. */
  waitFor: (count: number, timeoutMs?: number) => Promise<SseMessage[]>;
  close: () => void;
};

export async function connectSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  const waiters: (() => void)[] = [];
  const parse = createSseParser(({ id, data }) => {
    if (data === undefined) return;
    messages.push({ id, data: JSON.parse(data) });
    waiters.splice(0).forEach((wake) => wake());
  });
  if (response.body && response.ok) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parse(value);
        }
      } catch {
        // closed
      }
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    messages,
    waitFor: (count, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const timeout = setTimeout(
          () => reject(new Error(`expected ${count} messages, got ${JSON.stringify(messages)}`)),
          timeoutMs,
        );
        const check = () => {
          if (messages.length < count) return void waiters.push(check);
          clearTimeout(timeout);
          resolve(messages);
        };
        check();
      }),
    close: () => controller.abort(),
  };
}
