/**
 * A rendered page goes from the entry to the HTTP layer as its whole HTML beside an empty Response,
 * not as a web stream filled by one and read back by the other (docs/decisions/028).
 */
const HTML = Symbol("rendered page HTML");

type CarryingHtml = Response & { [HTML]?: string | Uint8Array };

export function renderedPage(html: string | Uint8Array, init: ResponseInit): Response {
  const response: CarryingHtml = new Response(null, init);
  response[HTML] = html;
  return response;
}

/** The page's HTML when `response` carries a rendered page. */
export function renderedHtml(response: Response): string | Uint8Array | undefined {
  return (response as CarryingHtml)[HTML];
}
