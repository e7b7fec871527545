import { offlineMessages as text } from "~/lib/messages";

const escaped = (value: string) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Arabic page shown offline for any page the worker does not hold; it uses the site's own stylesheets. */
export function offlinePageHtml(stylesheets: string[]): string {
  const links = stylesheets.map((href) => `<link rel="stylesheet" href="${escaped(href)}">`).join("");
  return `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escaped(text.title)}</title>${links}<style>main{max-width:32rem;margin:4rem auto;padding:0 1rem;text-align:center}h1{font-size:1.5rem;font-weight:700;margin-bottom:1rem}p{margin-bottom:1.5rem;line-height:1.8}nav{display:flex;gap:.75rem;justify-content:center;flex-wrap:wrap}a{border-radius:.25rem;padding:.5rem 1rem;font-weight:700;background:#c8102e;color:#fff}a+a{background:#fff;color:#a50d26;border:1px solid #d6d3d1}</style></head><body><main data-testid="offline-page"><h1>${escaped(text.title)}</h1><p>${escaped(text.text)}</p><nav><a href="/">${escaped(text.home)}</a><a href="">${escaped(text.retry)}</a></nav></main></body></html>`;
}
