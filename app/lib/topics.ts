import { topicMessages } from "./newsroom-messages";
import { normalizeArabic, wordsOf } from "./search/arabic";
import { slugWords } from "./slugs";

/*
 * Topics (decision 032): what a topic's name, key and address are, for browser and server alike.
 * The key is the name as search normalises it, so "المنيه" and "المنية" are one topic; the slug keeps
 * the name's own letters, words joined by hyphens, without tashkeel, tatweel or punctuation.
 */

export const TOPIC_NAME_MAX = 60;
export const MAX_TOPICS_PER_ARTICLE = 10;
/** The form's comma-separated field, whole: ten names and their commas fit with room to spare. */
export const TOPICS_FIELD_MAX = 1_000;
/** A topic's description, shown under its name on its page. */
export const TOPIC_DESCRIPTION_MAX = 300;

/** Suggestions the autocomplete offers at a time. */
export const TOPIC_SUGGESTIONS = 8;

export type Topic = { id: string; name: string; slug: string };

/** The name as shown: its spaces collapsed, its ends trimmed. */
export function cleanTopicName(raw: string): string {
  return raw.replace(/\s+/g, " ").trim();
}

/** The one form of a name every spelling of it shares (the search's normaliser, words single-spaced). */
export function topicKey(name: string): string {
  return wordsOf(normalizeArabic(name)).join(" ");
}

/** The topic's address segment: its words joined by hyphens (lib/slugs.ts); "" when it has none. */
export function topicSlug(name: string): string {
  return slugWords(name).join("-");
}

/** The topic page's path, its slug as it reads (HTML); `wirePath` or `absoluteUrl` encode it for the wire. */
export function topicPath(slug: string): string {
  return `/topic/${slug}`;
}

export function topicFeedPath(slug: string): string {
  return `${topicPath(slug)}/rss.xml`;
}

/** A name's refusal, or null when it may name a topic. */
export function topicNameProblem(name: string): string | null {
  if (name.length > TOPIC_NAME_MAX) return topicMessages.nameTooLong;
  if (topicKey(name) === "" || topicSlug(name) === "") return topicMessages.nameEmpty;
  return null;
}

/**
 * The form's field (names separated by commas, Arabic or Latin, or new lines) as a list of names, each
 * spelling of one topic once (the first kept), or the message that refuses it.
 */
export function parseTopicList(text: string): { names: string[] } | { problem: string } {
  if (text.length > TOPICS_FIELD_MAX) return { problem: topicMessages.listTooLong };
  const names: string[] = [];
  const keys = new Set<string>();
  for (const raw of text.split(/[,،\n]/)) {
    const name = cleanTopicName(raw);
    if (name === "") continue;
    const problem = topicNameProblem(name);
    if (problem) return { problem };
    const key = topicKey(name);
    if (keys.has(key)) continue;
    keys.add(key);
    names.push(name);
  }
  if (names.length > MAX_TOPICS_PER_ARTICLE) return { problem: topicMessages.tooMany };
  return { names };
}

/** The names back as the form's field. */
export function joinTopicNames(names: readonly string[]): string {
  return names.join("، ");
}
