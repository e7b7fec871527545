import { categoryLabel } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { articlePath, truncate, type NewsSummary } from "~/lib/news";
import { PlayIcon } from "./icons";
import { NewsImage } from "./news-image";
import { RelativeTime } from "./relative-time";

export function CategoryBadge({ category }: { category: NewsSummary["category"] }) {
  return (
    <span className="inline-block rounded bg-brand-600 px-2 py-0.5 text-xs font-bold text-white">{categoryLabel(category)}</span>
  );
}

export function DraftBadge() {
  return <span className="inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-900">{messages.draftBadge}</span>;
}

function Thumbnail({ item, sizes, eager, className = "" }: { item: NewsSummary; sizes: string; eager?: boolean; className?: string }) {
  return (
    <div className={`relative aspect-video overflow-hidden rounded bg-stone-200 ${className}`}>
      {item.image ? (
        <NewsImage url={item.image} alt={item.title} sizes={sizes} eager={eager} className="size-full" />
      ) : (
        <div className="flex size-full items-center justify-center bg-gradient-to-br from-brand-700 to-stone-800 p-3 text-center text-sm font-bold text-white/90">
          {messages.siteName}
        </div>
      )}
      {item.isVideo && (
        <span className="absolute bottom-2 start-2 flex size-8 items-center justify-center rounded-full bg-black/70 text-white">
          <PlayIcon className="size-4" />
        </span>
      )}
    </div>
  );
}

type CardProps = { item: NewsSummary; eager?: boolean; showExcerpt?: boolean; rowOnPhone?: boolean };

/** A card with image, category, title, excerpt and time; rowOnPhone puts a small image beside the text on phones. */
export function NewsCard({ item, eager = false, showExcerpt = true, rowOnPhone = false }: CardProps) {
  return (
    <article className="group flex flex-col overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-stone-200">
      <a href={articlePath(item.id)} className={`flex flex-1 flex-col ${rowOnPhone ? "max-sm:flex-row max-sm:p-2" : ""}`}>
        <Thumbnail
          item={item}
          sizes={rowOnPhone ? "(min-width: 640px) 33vw, 128px" : "(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"}
          eager={eager}
          className={rowOnPhone ? "max-sm:w-32 max-sm:shrink-0 max-sm:self-start" : ""}
        />
        <div className={`flex flex-1 flex-col gap-2 ${rowOnPhone ? "p-3 max-sm:py-0 max-sm:pe-0" : "p-3"}`}>
          <div className="flex items-center justify-between gap-2 text-xs text-stone-500">
            <span className="flex gap-1">
              <CategoryBadge category={item.category} />
              {item.status === "draft" && <DraftBadge />}
            </span>
            <RelativeTime iso={item.createdAt} />
          </div>
          <h3 className={`text-lg leading-snug font-bold group-hover:text-brand-700 ${rowOnPhone ? "max-sm:text-base" : ""}`}>{item.title}</h3>
          {showExcerpt && <p className="text-sm leading-relaxed text-stone-600">{truncate(item.excerpt, 110)}</p>}
        </div>
      </a>
    </article>
  );
}

/** A compact row: small image beside the title, for side lists. */
export function NewsRow({ item, rank }: { item: NewsSummary; rank?: number }) {
  return (
    <li>
      <a href={articlePath(item.id)} className="group flex gap-3 py-3">
        {rank !== undefined && (
          <span className="w-6 shrink-0 text-2xl font-bold text-brand-600" aria-hidden>
            {rank.toLocaleString("ar-LB")}
          </span>
        )}
        <div className="w-28 shrink-0">
          <Thumbnail item={item} sizes="112px" />
        </div>
        <div className="min-w-0">
          <h3 className="leading-snug font-bold group-hover:text-brand-700">{item.title}</h3>
          <RelativeTime iso={item.createdAt} className="mt-1 block text-xs text-stone-500" />
        </div>
      </a>
    </li>
  );
}

export function SectionHeading({ id, title, href }: { id: string; title: string; href?: string }) {
  return (
    <div className="mb-4 flex items-center justify-between border-b-2 border-brand-600">
      <h2 id={id} className="-mb-0.5 border-b-2 border-brand-600 pb-1 text-xl font-bold">
        {title}
      </h2>
      {href && (
        <a href={href} className="text-sm font-bold text-brand-700 hover:underline">
          {messages.seeAll}
        </a>
      )}
    </div>
  );
}

export function EmptyState({ text }: { text: string }) {
  return <p className="rounded-lg bg-white p-8 text-center text-stone-500 ring-1 ring-stone-200">{text}</p>;
}
