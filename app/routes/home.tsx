import { CATEGORIES, categoryLabel, categoryPath } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { teaserOf } from "~/lib/news";
import { EmptyState, NewsCard, SectionHeading } from "~/components/news-card";
import { Sidebar } from "~/components/news-lists";
import { Slider } from "~/components/slider";
import { SiteVisit } from "~/components/visit-counters";
import { audienceOf } from "~/server/accounts/guards.server";
import { auth } from "~/server/platform/site.server";
import { db } from "~/server/db/db.server";
import { latestByCategory, sidebarLists, sliderItems } from "~/server/news/reader-lists.server";
import { readCache } from "~/server/platform/site-read-cache.server";
import { useSiteFrame } from "~/components/use-site-frame";
import type { SiteFrame } from "~/lib/site-frame";
import type { Route } from "./+types/home";

const SECTION_SIZE = 3;

function homeTitle(site: SiteFrame): string {
  return site.tagline ? `${site.name} | ${site.tagline}` : site.name;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({ ...siteMetaOf(matches), path: "/", title: homeTitle(siteOf(matches)), description: siteOf(matches).description || siteOf(matches).tagline || siteOf(matches).name });
}

export async function loader({ request }: Route.LoaderArgs) {
  const database = db();
  const audience = await audienceOf(auth(), request);
  const [slider, sidebar, latest] = await Promise.all([
    sliderItems(database, readCache, audience),
    sidebarLists(database, readCache, audience),
    latestByCategory(database, readCache, CATEGORIES, SECTION_SIZE, audience),
  ]);
  const sections = CATEGORIES.map((category) => ({ category, items: latest.get(category) ?? [] }));
  return { slider, sidebar, sections };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { slider, sidebar, sections } = loaderData;
  return (
    <>
      <SiteVisit />
      <h1 className="sr-only">{useSiteFrame().name}</h1>
      <Slider items={slider.map(teaserOf)} />
      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <div className="space-y-10 lg:col-span-2">
          {sections.map(({ category, items }) => (
            <section key={category} aria-labelledby={`section-${category}`} data-testid={`section-${category}`}>
              <SectionHeading id={`section-${category}`} title={categoryLabel(category)} href={categoryPath(category)} />
              {items.length === 0 ? (
                <EmptyState text={messages.noNews} />
              ) : (
                <div className="grid gap-4 sm:grid-cols-3">
                  {items.map((item, index) => (
                    <NewsCard key={item.id} item={item} showExcerpt={false} rowOnPhone={index > 0} />
                  ))}
                </div>
              )}
            </section>
          ))}
        </div>
        <Sidebar {...sidebar} />
      </div>
    </>
  );
}
