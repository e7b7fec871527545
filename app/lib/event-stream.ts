/** How long a stream the server refused (a 503 when full) waits before it is opened again. */
const REOPEN_MS = 5_000;

/**
 * Follows Server-Sent Events at `url()` (asked again at each reopening), handing each message to
 * `receive`. The browser retries a dropped stream with Last-Event-ID by itself; one the server
 * refused is opened again after a while. Returns the function that stops it.
 */
export function followEventStream(url: () => string, receive: (message: MessageEvent<string>) => void): () => void {
  let source: EventSource | null = null;
  let reopen: number | undefined;
  const open = () => {
    source = new EventSource(url());
    source.onmessage = receive;
    source.onerror = () => {
      if (source?.readyState === EventSource.CLOSED) reopen = window.setTimeout(open, REOPEN_MS);
    };
  };
  open();
  return () => {
    window.clearTimeout(reopen);
    source?.close();
  };
}
