import { categoryLabel } from "~/lib/categories";
import { liveMessages, messages } from "~/lib/messages";
import { articlePath, shownTime, truncate, type NewsSummary, type NewsTeaser } from "~/lib/news";
import { Byline } from "./byline";
import { PlayIcon } from "./icons";
import { NewsImage } from "./news-image";
import { RelativeTime } from "./relative-time";

export function CategoryBadge({ category }: { category: NewsSummary["category"] }) {
  return <span className="badge">{categoryLabel(category)}</span>;
}

/** The 'مباشر' mark of a story whose live coverage is open (decision 040). */
export function LiveBadge() {
  return <span className="live-badge">{liveMessages.live}</span>;
}

/** A card's or row's image sits in the link beside the title: alt="" keeps screen readers from
   reading the title twice (and the page from carrying it twice). */
function Thumbnail({
  item,
  sizes,
  eager,
  onlyWidth,
  className = "",
}: {
  item: NewsTeaser;
  sizes: string;
  eager?: boolean;
  onlyWidth?: number;
  className?: string;
}) {
  return (
    <div className={className ? `thumb ${className}` : "thumb"}>
      {item.image ? (
        <NewsImage
          url={item.image}
          alt=""
          sizes={sizes}
          eager={eager}
          onlyWidth={onlyWidth}
          boxed
          position={item.imageFocus}
        />
      ) : (
        <div className="thumb-none">{categoryLabel(item.category)}</div>
      )}
      {item.isVideo && (
        <span className="absolute bottom-2 start-2 flex size-8 items-center justify-center rounded-full bg-black/70 text-white">
          <PlayIcon className="size-4" />
        </span>
      )}
    </div>
  );
}

type CardProps = {
  item: NewsSummary;
  eager?: boolean;
  showExcerpt?: boolean;
  showCredit?: boolean;
  rowOnPhone?: boolean;
};

/**
 * A card with image, category, title, excerpt, byline and time; rowOnPhone puts a small image beside
 * the text on phones. The byline comes with the excerpt, on the larger cards (inside the card's link: not a link).
 */
export function NewsCard({
  item,
  eager = false,
  showExcerpt = true,
  showCredit = showExcerpt,
  rowOnPhone = false,
}: CardProps) {
  return (
    <article className={rowOnPhone ? "card card-row group" : "card group"}>
      <a href={articlePath(item.id, item.slug)}>
        <Thumbnail
          item={item}
          sizes={
            rowOnPhone ? "(min-width: 640px) 33vw, 128px" : "(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
          }
          eager={eager}
        />
        <div className="card-body">
          <div className="card-meta">
            {item.live && <LiveBadge />}
            <CategoryBadge category={item.category} />
            <RelativeTime iso={shownTime(item)} />
          </div>
          <h3>{item.title}</h3>
          {showExcerpt && <p className="text-sm leading-relaxed text-stone-600">{truncate(item.excerpt, 110)}</p>}
          {showCredit && <Byline credit={item.credit} linked={false} className="text-xs text-stone-500" />}
        </div>
      </a>
    </article>
  );
}

/** A row's 112 px image: the 400 px variant covers screens of up to three device pixels per pixel. */
const ROW_IMAGE_WIDTH = 400;

/** A compact row: small image beside the title, for side lists (in a `.row-list`, which styles it). */
export function NewsRow({ item, rank }: { item: NewsTeaser; rank?: number }) {
  return (
    <li>
      <a href={articlePath(item.id, item.slug)} className="group">
        {rank !== undefined && (
          <span className="rank" aria-hidden>
            {rank.toLocaleString("ar-LB")}
          </span>
        )}
        <Thumbnail item={item} sizes="112px" onlyWidth={ROW_IMAGE_WIDTH} />
        <div>
          <h3>{item.title}</h3>
          <RelativeTime iso={shownTime(item)} />
        </div>
      </a>
    </li>
  );
}

export function SectionHeading({ id, title, href }: { id: string; title: string; href?: string }) {
  return (
    <div className="section-heading">
      <h2 id={id}>{title}</h2>
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
