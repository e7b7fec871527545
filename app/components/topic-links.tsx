import { topicMessages } from "~/lib/newsroom-messages";
import { topicPath } from "~/lib/topics";

/** A topic as a reader sees it: a link to its page, or (in a preview, before it is saved) its name alone. */
export type ShownTopic = { name: string; slug?: string };

const chip = "inline-block rounded-full border border-stone-300 bg-white px-3 py-1 text-sm font-bold text-stone-700";

/** The article's topics under its text: a labelled list of links to their pages. */
export function TopicLinks({ topics }: { topics: readonly ShownTopic[] }) {
  if (topics.length === 0) return null;
  return (
    <nav aria-labelledby="topics-heading" className="mt-8 border-t border-stone-200 pt-4" data-testid="article-topics">
      <h2 id="topics-heading" className="mb-2 text-base font-bold text-stone-600">
        {topicMessages.onArticle}
      </h2>
      <ul className="flex flex-wrap gap-2">
        {topics.map((topic) => (
          <li key={topic.slug ?? topic.name}>
            {topic.slug ? (
              <a href={topicPath(topic.slug)} className={`${chip} hover:border-brand-600 hover:text-brand-700`}>
                {topic.name}
              </a>
            ) : (
              <span className={chip}>{topic.name}</span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
