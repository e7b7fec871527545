import { authorPath, type Credit } from "~/lib/bylines";
import { messages } from "~/lib/messages";

/** "بقلم" and who: the author's name links to their page; a byline text is plain. */
export function Byline({
  credit,
  linked = true,
  className,
}: {
  credit: Credit | null;
  linked?: boolean;
  className?: string;
}) {
  if (!credit) return null;
  return (
    <span className={className} data-testid="byline">
      {`${messages.byAuthor} `}
      {linked && credit.isAuthor ? (
        <a href={authorPath(credit.name)} rel="author" className="font-bold text-brand-700 hover:underline">
          {credit.name}
        </a>
      ) : (
        <span className="font-bold">{credit.name}</span>
      )}
    </span>
  );
}
