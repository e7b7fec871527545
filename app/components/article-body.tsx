import type { Category } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import type { ImageDetailsMap } from "~/lib/image-details";
import type { RichDocument } from "~/lib/rich-text/document";
import { ArticleImages, ArticleVideo } from "./article-media";
import { ClockIcon } from "./icons";
import { CategoryBadge } from "./news-card";
import { RichText } from "./rich-text";
import { TopicLinks, type ShownTopic } from "./topic-links";
import { Standfirst } from "./article-share-fields";
import { Byline } from "./byline";
import type { Credit } from "~/lib/bylines";

export type ArticleBodyProps = {
  title: string;
  /** Under the headline; a revision without one (or made before migration 021) shows none. */
  standfirst?: string | null;
  /** Who the page credits (lib/bylines.ts); none shows no byline. */
  credit?: Credit | null;
  body: RichDocument;
  category: Category;
  images: string[];
  imageDetails: ImageDetailsMap;
  video: string | null;
  videoPoster?: string;
  time: string;
  topics?: readonly ShownTopic[];
};

/** An article as readers see it on its page (title, standfirst, credit, time, media, text, topics), for a preview or a revision: nothing to click. */
export function ArticleBody({
  title,
  standfirst = null,
  credit = null,
  body,
  category,
  images,
  imageDetails,
  video,
  videoPoster,
  time,
  topics = [],
}: ArticleBodyProps) {
  return (
    <article aria-labelledby="article-title">
      <header className="flex flex-col gap-3">
        <div>
          <CategoryBadge category={category} />
        </div>
        <h1 id="article-title" className="text-2xl leading-snug font-bold sm:text-4xl">
          {title}
        </h1>
        <Standfirst text={standfirst} />
        <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-stone-600">
          <Byline credit={credit} linked={false} />
          <span className="inline-flex items-center gap-1">
            <ClockIcon />
            <time dateTime={time}>{formatDateTime(time)}</time>
          </span>
        </div>
      </header>
      <div className="mt-6 space-y-4">
        <ArticleImages images={images} details={imageDetails} title={title} />
        <ArticleVideo url={video} title={title} poster={videoPoster} />
      </div>
      <div className="rich-text mt-6 text-lg" data-testid="article-content">
        <RichText document={body} />
      </div>
      <TopicLinks topics={topics} />
    </article>
  );
}
