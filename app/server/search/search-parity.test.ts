/**
 * One corpus on both engines, the same answers: result ids in the same order and the same snippets
 * for every query. Runs in the PostgreSQL pass (TEST_DATABASE=postgres), which has both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { demoArticles } from "~/server/demo/demo-articles";
import { createTestArticle } from "../../../harness/articles";
import { onPostgres } from "../../../harness/postgres";
import { seededRandom } from "../../../harness/seeded-random";
import { createTempDatabase, type TempDatabase } from "../../../harness/temp-db";
import { SEARCH_PAGE_SIZE, searchNews } from "~/server/news/search-news.server";

type CorpusArticle = { title: string; content: string; draft?: boolean };

const SPELLINGS: CorpusArticle[] = [
  { title: "إغلاق الطريق في عكار عام ٢٠٢٦", content: "أعلنت البلديّة إقفال الطريق الرئيسيّ بسبب الثلوج" },
  { title: "اغلاق طريق المنية سنة 2026", content: "اعلن المسؤول اقفال الطـــريق" },
  { title: "نقابة المهندسين تجتمع", content: "حضر المهندسون والمهندسات الاجتماع في المستشفى" },
  { title: "مهندس يفوز بجائزة", content: "قال المسئول إن الجائزة للمهندس" },
  { title: "جامعة بيروت تفتح أبوابها", content: "طلاب الجامعات في إضراب" },
  { title: "وزارة الشؤون الاجتماعية", content: "مدير الشئون الإدارية في المؤتمر" },
  { title: "مؤتمر عن المدرسة", content: "والمدرسة الجديدة بالمدرسة للمدرسة فالمدرسة" },
  { title: "موتمر صحفي للوزير", content: "تحديث تطبيق WhatsApp وشركة Meta" },
  { title: "مسودة عن المرفأ", content: "المرفأ والمراكب", draft: true },
  { title: "خبر عن بلدية الميناء", content: "قال إن لديه معلومات عن مستشفي المدينة" },
];

const QUERIES = [
  "اغلاق",
  "إغلاق",
  "البلديه",
  "الطريقُ",
  "الطـــريق",
  "2026",
  "٢٠٢٦",
  "مهندسين",
  "المهندسون",
  "مهندس",
  "الجامعات",
  "جامعة",
  "شؤون",
  "شئون",
  "موتمر",
  "مؤتمر",
  "مسؤول",
  "مدرس",
  "والمدرسة",
  "للمدرسة",
  "بلدية",
  "مستشفى",
  "مس",
  "الم",
  "في",
  "وزير",
  "المدرسة الجديدة",
  "طرابلس بيروت",
  "في من على",
  "whatsapp meta",
  "المرفأ",
  "زلزال",
  "كلمةلاتوجد",
  '"',
  "NEAR(طرابلس الميناء)",
  "title:طرابلس",
  "طرابلس*",
  "' OR 1=1 --",
  "\u064e\u0651\u064b",
];

/** Demo articles, the spelling cases, and articles drawn from the demo vocabulary: more than a window of newest rows. */
function corpus(): CorpusArticle[] {
  const random = seededRandom(14);
  const words = demoArticles.flatMap((a) => [a.title, ...a.paragraphs].join(" ").split(/\s+/));
  const drawn = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(" ");
  const generated = Array.from({ length: 200 }, (_, i) => ({
    title: drawn(6),
    content: drawn(60),
    draft: i % 17 === 0,
  }));
  const demo = demoArticles.map((a) => ({ title: a.title, content: a.paragraphs.join("\n\n") }));
  return [...generated, ...demo, ...SPELLINGS];
}

const start = new Date("2026-01-01T00:00:00Z").getTime();
let engines: { sqlite: TempDatabase; postgres: TempDatabase };
/** Each engine's article ids by corpus position, so answers compare across engines. */
const positions = new Map<DB, Map<string, number>>();

async function load(db: DB, articles: CorpusArticle[]): Promise<void> {
  const byId = new Map<string, number>();
  for (const [i, article] of articles.entries()) {
    const created = await createTestArticle(db, {
      title: article.title,
      content: article.content,
      status: article.draft ? "draft" : "published",
      createdAt: new Date(start + i * 60_000),
    });
    byId.set(created.id, i);
  }
  positions.set(db, byId);
}

async function answer(db: DB, query: string, page: number) {
  const { results, hasMore } = await searchNews(db, query, { page });
  const byId = positions.get(db);
  return {
    hasMore,
    results: results.map((r) => ({ at: byId?.get(r.id), title: r.titleSegments, snippet: r.snippet })),
  };
}

describe.runIf(onPostgres)("search parity between SQLite and PostgreSQL", () => {
  beforeAll(async () => {
    engines = { sqlite: await createTempDatabase("sqlite"), postgres: await createTempDatabase("postgres") };
    const articles = corpus();
    await load(engines.sqlite.db, articles);
    await load(engines.postgres.db, articles);
  }, 120_000);
  afterAll(async () => {
    await engines?.sqlite.cleanup();
    await engines?.postgres.cleanup();
  });

  it("gives the same ids in the same order, and the same snippets, for every query", async () => {
    let found = 0;
    for (const query of QUERIES) {
      for (const page of [1, 2]) {
        const onSqlite = await answer(engines.sqlite.db, query, page);
        const onPostgres = await answer(engines.postgres.db, query, page);
        expect(onPostgres, `${query} page ${page}`).toEqual(onSqlite);
        found += onSqlite.results.length;
      }
    }
    // The corpus answers most queries, with full pages among them, so equal answers mean something
    // (two pages a query: at most twice this).
    expect(found).toBeGreaterThan((3 * QUERIES.length * SEARCH_PAGE_SIZE) / 4);
  });

  it("orders the forms as typed before their variants on both engines", async () => {
    const spellingsAt = (i: number) => 200 + demoArticles.length + i;
    for (const db of [engines.sqlite.db, engines.postgres.db]) {
      const { results } = await answer(db, "مهندسين", 1);
      expect(results.map((r) => r.at)).toEqual([spellingsAt(2), spellingsAt(3)]);
      const hamza = await answer(db, "شئون", 1);
      expect(hamza.results.map((r) => r.at)).toEqual([spellingsAt(5)]);
    }
  });
});
