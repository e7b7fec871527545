import { CATEGORIES, categoryLabel, categoryPath } from "~/lib/categories";
import { LATEST_NEWS_COUNT } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import { EmptyState, NewsCard, SectionHeading } from "~/components/news-card";
import { LatestNews, MostRead } from "~/components/news-lists";
import { Slider } from "~/components/slider";
import { SiteVisit } from "~/components/visit-counters";
import { audienceOf } from "~/server/accounts/guards.server";
import { auth } from "~/server/platform/site.server";
import { db } from "~/server/db/db.server";
import { listLatest, listMostRead, listSlider } from "~/server/news/news.server";
import type { Route } from "./+types/home";

const SECTION_SIZE = 3;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({ baseUrl: baseUrlOf(matches), path: "/", title: `${messages.siteName} | ${messages.siteTagline}`, description: messages.siteDescription });
}

export async function loader({ request }: Route.LoaderArgs) {
  const database = db();
  const audience = await audienceOf(auth(), request);
  const [slider, latest, mostRead, sections] = await Promise.all([
    listSlider(database, audience),
    listLatest(database, { limit: LATEST_NEWS_COUNT, audience }),
    listMostRead(database, undefined, audience),
    Promise.all(
      CATEGORIES.map(async (category) => ({
        category,
        items: await listLatest(database, { category, limit: SECTION_SIZE, audience }),
      })),
    ),
  ]);
  return { slider, latest, mostRead, sections };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { slider, latest, mostRead, sections } = loaderData;
  return (
    <>
      <SiteVisit />
      <h1 className="sr-only">{messages.siteName}</h1>
      <Slider items={slider} />
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
        <aside className="flex flex-col gap-10">
          <LatestNews items={latest} />
          <MostRead items={mostRead} />
        </aside>
      </div>
    </>
  );
}
