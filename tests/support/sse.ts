/** A Server-Sent Events client over fetch, for tests against the real server. */
export type SseMessage = { id?: string; data: unknown };

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
  if (response.body && response.ok) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = block.split("\n");
            const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
            if (data.length === 0) continue;
            const id = lines.find((l) => l.startsWith("id: "))?.slice(4);
            messages.push({ id, data: JSON.parse(data.join("\n")) });
            waiters.splice(0).forEach((wake) => wake());
          }
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
        const timeout = setTimeout(() => reject(new Error(`expected ${count} messages, got ${JSON.stringify(messages)}`)), timeoutMs);
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
