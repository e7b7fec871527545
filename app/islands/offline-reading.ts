import {
  MAX_KEPT_STORIES,
  mayFetchAhead,
  type ConnectionFacts,
  type KeepStories,
  type KeptStory,
} from "~/lib/offline-cache-rules";

/** What holds a story's link and its picture: a card or a slide. */
const STORY_BOX = 'article, [aria-roledescription="slide"]';

/** The first stories the page's main column links to, other than the page itself, each with the picture beside its link. */
export function storiesOnPage(root: Document = document): KeptStory[] {
  const here = root.location.pathname;
  const stories: KeptStory[] = [];
  for (const link of root.querySelectorAll<HTMLAnchorElement>('main a[href^="/news/"]')) {
    const page = new URL(link.href).pathname;
    if (page === here || stories.some((story) => story.page === page)) continue;
    const picture = (link.querySelector("img") ?? link.closest(STORY_BOX)?.querySelector("img"))?.src ?? null;
    stories.push({ page, picture });
    if (stories.length === MAX_KEPT_STORIES) break;
  }
  return stories;
}

/**
 * Asks the service worker to keep the stories this page leads to for reading offline: called once the
 * page is hydrated and the browser idle, never with Save-Data or on a cellular connection.
 */
export async function keepStoriesForOffline(): Promise<void> {
  const connection = (navigator as Navigator & { connection?: ConnectionFacts }).connection;
  if (!("serviceWorker" in navigator) || !mayFetchAhead(connection)) return;
  const stories = storiesOnPage();
  if (stories.length === 0) return;
  const { active } = await navigator.serviceWorker.ready;
  active?.postMessage({ kind: "keep-stories", stories } satisfies KeepStories);
}
