import type { DemoArticle } from "./demo-articles";

/**
 * The demo's topics: the region's towns and a few running stories, each given to the demo
 * articles whose title or text names it, so a new site shows topic pages, links and feeds at once.
 */
type DemoTopic = { name: string; words: string[] };

const DEMO_TOPICS: DemoTopic[] = [
  { name: "طرابلس", words: ["طرابلس"] },
  { name: "المنية", words: ["المنية"] },
  { name: "الضنية", words: ["الضنية", "بقاعصفرين"] },
  { name: "عكار", words: ["عكار", "حلبا", "القبيات"] },
  { name: "الكورة", words: ["الكورة"] },
  { name: "زغرتا", words: ["زغرتا"] },
  { name: "البترون", words: ["البترون"] },
  { name: "الميناء", words: ["الميناء"] },
  { name: "العاصفة", words: ["عاصفة", "العاصفة", "الأحوال الجوية", "منخفض جوي"] },
  { name: "أزمة الكهرباء", words: ["التيار الكهربائي", "كهرباء لبنان", "التغذية"] },
  { name: "الامتحانات الرسمية", words: ["الامتحانات الرسمية", "امتحانات الشهادة الرسمية"] },
  { name: "الدفاع المدني", words: ["الدفاع المدني"] },
];

const MAX_DEMO_TOPICS = 4;

/** The demo topics an article names, towns first, at most four. */
export function demoTopicNames(article: Pick<DemoArticle, "title" | "paragraphs">): string[] {
  const text = [article.title, ...article.paragraphs].join(" ");
  return DEMO_TOPICS.filter((topic) => topic.words.some((word) => text.includes(word)))
    .slice(0, MAX_DEMO_TOPICS)
    .map((topic) => topic.name);
}
