import { Link } from "react-router";
import { categoryLabel } from "~/lib/categories";
import { formatDay } from "~/lib/dates";
import { articlePath, shownTime } from "~/lib/news";
import type { Segment } from "~/lib/search/search-snippet";
import { Byline } from "./byline";
import type { SearchResult } from "~/server/news/search-news.server";

function Highlighted({ segments }: { segments: Segment[] }) {
  return segments.map((segment, index) =>
    segment.match ? (
      <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-inherit">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  );
}

export function SearchResultItem({ result }: { result: SearchResult }) {
  return (
    <li className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-stone-200">
      <h2 className="text-lg font-bold">
        <Link to={articlePath(result.id, result.slug)} className="hover:text-brand-700">
          <Highlighted segments={result.titleSegments} />
        </Link>
      </h2>
      <p className="mt-1 text-xs text-stone-500">
        {categoryLabel(result.category)} · <time dateTime={shownTime(result)}>{formatDay(shownTime(result))}</time>
        {result.credit && (
          <>
            {" "}
            · <Byline credit={result.credit} linked={false} />
          </>
        )}
      </p>
      <p className="mt-2 leading-relaxed text-stone-700" data-testid="search-snippet">
        <Highlighted segments={result.snippet} />
      </p>
    </li>
  );
}
