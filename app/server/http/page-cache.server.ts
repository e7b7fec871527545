import { createHash } from "node:crypto";
import { encodeNow, MIN_ENCODED_BYTES, preferredEncoding, type Encoding } from "./encoding.server";

export type CachedPage = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  storedAt: number;
  /** The body in each encoding asked for so far, each made once (the first by the render that stored it). */
  encoded: Partial<Record<Encoding, Buffer>>;
};

export type RenderedPage = Omit<CachedPage, "etag" | "storedAt" | "encoded"> & { encoded?: CachedPage["encoded"] };

/**
 * What to do with a request for a page:
 * - `hit`: send this copy (fresh, or past its lifetime while another request renders a new one);
 * - `wait`: nothing to send yet and another request is rendering it: wait, then look again;
 * - `render`: this request renders the page, then calls `done` with it (or with nothing).
 */
export type Lookup =
  | { kind: "hit"; page: CachedPage }
  | { kind: "wait"; rendered: Promise<void> }
  | { kind: "render"; done: (page?: RenderedPage, now?: number) => void };

const MAX_PAGES = 500;
/** How long past its lifetime a page may still be sent while its new copy renders. */
const STALE_GRACE_MS = 60_000;

/**
 * Rendered pages for anonymous readers, kept a few seconds so one server holds a rush on one story:
 * each page renders once at a time, however many readers ask for it together. Only the HTTP layer
 * fills it (never with a signed-in response); every change, on any process, empties it (through the outbox).
 */
export class PageCache {
  private pages = new Map<string, CachedPage>();
  private rendering = new Map<string, Promise<void>>();
  /** Bumped by clear(): a render that started before an article write must not be stored after it. */
  private generation = 0;

  constructor(
    readonly lifetimeMs: number,
    private maxPages = MAX_PAGES,
  ) {}

  lookup(key: string, now = Date.now()): Lookup {
    const page = this.pages.get(key);
    const age = page ? now - page.storedAt : Infinity;
    if (page && age <= this.lifetimeMs) return { kind: "hit", page };
    const inFlight = this.rendering.get(key);
    if (page && age <= this.lifetimeMs + STALE_GRACE_MS && inFlight) return { kind: "hit", page };
    if (inFlight) return { kind: "wait", rendered: inFlight };
    return { kind: "render", done: this.startRender(key) };
  }

  /** The page a lookup would answer `hit` with, without starting a render when there is none. */
  peek(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    const age = now - page.storedAt;
    if (age <= this.lifetimeMs) return page;
    return age <= this.lifetimeMs + STALE_GRACE_MS && this.rendering.has(key) ? page : undefined;
  }

  /** A page only if it is within its lifetime. */
  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.pages.get(key);
    return page && now - page.storedAt <= this.lifetimeMs ? page : undefined;
  }

  clear(): void {
    this.pages.clear();
    this.generation += 1;
  }

  get size(): number {
    return this.pages.size;
  }

  private startRender(key: string): (page?: RenderedPage, now?: number) => void {
    const generation = this.generation;
    let finish!: () => void;
    this.rendering.set(key, new Promise<void>((resolve) => (finish = resolve)));
    let finished = false;
    return (page, now = Date.now()) => {
      if (finished) return;
      finished = true;
      if (page && generation === this.generation) this.store(key, page, now);
      this.rendering.delete(key);
      finish();
    };
  }

  private store(key: string, page: RenderedPage, now: number) {
    this.pages.delete(key);
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value as string);
    const etag = `"${createHash("sha1").update(page.body).digest("base64url")}"`;
    this.pages.set(key, { ...page, etag, storedAt: now, encoded: { ...page.encoded } });
  }
}

/** The body in the encoding the client prefers (small pages as they are), each encoding made once per cached page. */
export function encodedBody(
  page: CachedPage,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: Encoding } {
  const encoding = page.body.length >= MIN_ENCODED_BYTES ? preferredEncoding(acceptEncoding) : undefined;
  if (!encoding) return { body: page.body };
  return { body: (page.encoded[encoding] ??= encodeNow(page.body, encoding)), encoding };
}
