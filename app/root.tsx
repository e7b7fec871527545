import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import cairoArabic400 from "@fontsource/cairo/files/cairo-arabic-400-normal.woff2?url";
import cairoArabic700 from "@fontsource/cairo/files/cairo-arabic-700-normal.woff2?url";
import { BreakingTicker } from "./components/breaking/ticker";
import { describeError, ErrorPage, errorPageTitle } from "./components/error-page";
import { Footer } from "./components/footer";
import { Navbar } from "./components/navbar";
import { ScrollToTop } from "./components/scroll-to-top";
import { messages } from "./lib/messages";
import { siteOf } from "./lib/seo";
import type { BreakingItem } from "./lib/breaking";
import { hydratesWholeDocument, IslandScripts } from "./islands/island-scripts";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { breakingTicker } from "~/server/news/reader-lists.server";
import { keepErrorHeaders } from "~/server/http/error-headers.server";
import { cachedSiteFrame } from "~/server/site-settings/site-settings.server";
import { useSiteFrame } from "./components/use-site-frame";
import { siteContext } from "~/server/site/request-context.server";

// The Arabic subsets are on every page's first screen: fetch them with the CSS, not after it.
export const links: LinksFunction = () => [
  { rel: "preload", href: cairoArabic400, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: cairoArabic700, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export const headers = keepErrorHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const [user, breaking, frame] = await Promise.all([
    getCurrentUser(site.auth, request),
    breakingTicker(site.db, site.readCache),
    cachedSiteFrame(site.db, site.readCache),
  ]);
  return { user: user && { name: user.name, role: user.role }, breaking, baseUrl: site.config.baseUrl, site: frame };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const wholeDocument = hydratesWholeDocument(useMatches().map((match) => match.handle));
  return (
    <html lang="ar" dir="rtl">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#c8102e" />
        <Meta />
        <SiteLinks />
        {/* Stylesheets and preloads need no nonce ('self' allows them): on the pages that hydrate
            whole, an empty one keeps the response's nonce, which hydration cannot see, out of them. */}
        <Links nonce={wholeDocument ? "" : undefined} />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        {wholeDocument ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <IslandScripts />
        )}
      </body>
    </html>
  );
}

/** The icons and the feed, named after the site's settings. */
function SiteLinks() {
  const site = useSiteFrame();
  return (
    <>
      {site.images.favicon32 ? (
        <link rel="icon" href={site.images.favicon32} type="image/png" sizes="32x32" />
      ) : (
        <>
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
        </>
      )}
      <link rel="apple-touch-icon" href={site.images.appleTouch ?? "/apple-touch-icon.png"} />
      <link rel="alternate" type="application/rss+xml" title={site.name} href="/rss.xml" />
    </>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <>
      <a href="#main" className="skip-link">
        {messages.skipToContent}
      </a>
      <Navbar />
      <BreakingTicker
        initial={(root?.breaking ?? NO_ITEMS).map(({ id, title, slug, live }) => ({
          id,
          title,
          slug,
          ...(live ? { live } : {}),
        }))}
      />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {children}
      </main>
      <Footer />
      <ScrollToTop />
    </>
  );
}

const NO_ITEMS: BreakingItem[] = [];

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** Error pages get their title here: the route that failed never rendered its own. */
export function meta({ error, matches }: Route.MetaArgs) {
  return error ? [{ title: errorPageTitle(error, siteOf(matches).name) }, { name: "robots", content: "noindex" }] : [];
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (import.meta.env.DEV && error instanceof Error) console.error(error);
  return (
    <Shell>
      <ErrorPage {...describeError(error)} />
    </Shell>
  );
}
