import { categoryLabel, categoryPath, type Category } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { teaserOf, type NewsSummary } from "~/lib/news";
import { EmptyState, NewsCard, SectionHeading } from "~/components/news-card";
import { Sidebar } from "~/components/news-lists";
import { usePrerendered } from "~/components/prerendered";
import { Slider } from "~/components/slider";
import { SiteVisit } from "~/components/visit-counters";
import { homeSections, sidebarLists, sliderItems } from "~/server/news/reader-lists.server";
import { useSiteFrame } from "~/components/use-site-frame";
import type { SiteFrame } from "~/lib/site-settings";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/home";

const SECTION_SIZE = 3;

function homeTitle(site: SiteFrame): string {
  return site.tagline ? `${site.name} | ${site.tagline}` : site.name;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/",
    title: homeTitle(siteOf(matches)),
    description: siteOf(matches).description || siteOf(matches).tagline || siteOf(matches).name,
  });
}

/** The same for every reader, signed in or not (decision 031). */
export async function loader({ context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const database = site.db;
  const [slider, sidebar, sections] = await Promise.all([
    sliderItems(database, site.readCache),
    sidebarLists(database, site.readCache),
    homeSections(database, site.readCache, SECTION_SIZE),
  ]);
  return { slider, sidebar, sections };
}

type Section = { category: Category; items: NewsSummary[] };

function Sections({ sections }: { sections: Section[] }) {
  return sections.map(({ category, items }) => (
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
  ));
}

const SECTIONS_CLASS = "space-y-10 lg:col-span-2";

export default function Home({ loaderData }: Route.ComponentProps) {
  const { slider, sidebar, sections } = loaderData;
  // The sections are the same for every anonymous reader while the read cache keeps them: their HTML is made once.
  const prerendered = usePrerendered();
  return (
    <>
      <SiteVisit />
      <h1 className="sr-only">{useSiteFrame().name}</h1>
      <Slider items={slider.map(teaserOf)} />
      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        {prerendered ? (
          <div
            className={SECTIONS_CLASS}
            dangerouslySetInnerHTML={{ __html: prerendered.once(sections, () => <Sections sections={sections} />) }}
          />
        ) : (
          <div className={SECTIONS_CLASS}>
            <Sections sections={sections} />
          </div>
        )}
        <Sidebar {...sidebar} />
      </div>
    </>
  );
}
