import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { BoundedCache } from "~/lib/bounded-cache";
import { categoryPath, CATEGORIES } from "~/lib/categories";
import { FooterContent } from "~/components/footer";
import { NavbarContent } from "~/components/navbar";
import type { Prerendered } from "~/components/prerendered";
import type { SiteFrame } from "~/lib/site-settings";

/**
 * The address the navbar is rendered at for a page: its menus mark the home page and the category
 * pages as current (`aria-current`), every other page alike. So a few copies serve every page.
 */
export function navbarAddress(pathname: string): string {
  // NavLink compares addresses without regard to case.
  pathname = pathname.toLowerCase();
  if (pathname === "/") return "/";
  for (const category of CATEGORIES) {
    const path = categoryPath(category);
    if (pathname === path) return path;
    if (pathname.startsWith(`${path}/`)) return `${path}/`;
  }
  return "/news";
}

/**
 * `element` rendered as an anonymous reader's page at `pathname` would render it: inside a router
 * (links, forms, current-page marks) whose root data has no user and the site's settings. renderToString,
 * as the page's own render writes it, so the islands inside hydrate the markup they would have.
 */
async function renderAt(site: SiteFrame, pathname: string, element: ReactNode): Promise<string> {
  const handler = createStaticHandler([{ id: "root", path: "*", loader: () => ({ user: null, site }), element }]);
  const context = await handler.query(new Request(`http://prerender${pathname}`));
  if (context instanceof Response) throw new Error(`prerendering ${pathname} answered ${context.status}`);
  return bodyOf(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

/**
 * `element`'s HTML as a page's render would write it: inside a document, so that what React hoists
 * (an image's preload) goes to its <head>, not before the markup; the page's render hoists its own.
 */
function bodyOf(element: ReactNode): string {
  const html = renderToString(
    <html>
      <head />
      <body>{element}</body>
    </html>,
  );
  return html.slice(html.indexOf("<body>") + "<body>".length, html.lastIndexOf("</body>"));
}

const rendered = new WeakMap<object, string>();

/** The HTML of `render()` once per `key`: kept while the key (a list the read cache shares) lives. */
function once(key: object, render: () => ReactNode): string {
  let html = rendered.get(key);
  if (html === undefined) {
    html = bodyOf(render());
    rendered.set(key, html);
  }
  return html;
}

/** A navbar per current-page address (under twenty) and a footer per year. */
const REGIONS_PER_FRAME = 32;
const regionsBySite = new WeakMap<SiteFrame, BoundedCache<string, Promise<string>>>();

/**
 * A region's HTML once per `key` and site frame. The frame is the object the read cache keeps
 * (decision 019), replaced on every change: its regions go with it, and a region is never rendered
 * with other settings than the page around it.
 */
function regionOf(site: SiteFrame, key: string, render: () => Promise<string>): Promise<string> {
  let regions = regionsBySite.get(site);
  if (!regions) regionsBySite.set(site, (regions = new BoundedCache({ maxEntries: REGIONS_PER_FRAME })));
  return regions.get(key, render);
}

/**
 * The shell's regions for an anonymous reader's page at `pathname`, with the site's settings the
 * page's root loader read: the navbar per current-page address, the footer by year, as it shows it.
 */
export async function shellRegions(site: SiteFrame, pathname: string, now = new Date()): Promise<Prerendered> {
  const address = navbarAddress(pathname);
  const year = now.getFullYear();
  const [navbar, footer] = await Promise.all([
    regionOf(site, `navbar:${address}`, () => renderAt(site, address, <NavbarContent />)),
    regionOf(site, `footer:${year}`, () => renderAt(site, "/", <FooterContent year={year} />)),
  ]);
  return { navbar, footer, once };
}
