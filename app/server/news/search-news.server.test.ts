import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrationsFor } from "../../../migrations/index";
import { createTempDatabase } from "../../../harness/temp-db";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import type { NewArticle } from "./articles-write.server";
import { createTestArticle } from "../../../harness/articles";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { SEARCH_PAGE_SIZE, searchNews } from "./search-news.server";

let db: DB;
let cleanup: () => Promise<void>;
const base = new Date("2026-11-01T10:00:00Z").getTime();

beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

async function article(
  minutesAfterBase: number,
  title: string,
  content = "نص عادي لا يطابق شيئاً",
  extra: Partial<NewArticle> = {},
) {
  const created = await createTestArticle(db, {
    title,
    content,
    category: "local",
    createdAt: new Date(base + minutesAfterBase * 60_000),
    ...extra,
  });
  return created.id;
}

async function titles(query: string, options: Parameters<typeof searchNews>[2] = {}) {
  return (await searchNews(db, query, options)).results.map((r) => r.title);
}

/** An edit or delete as the dashboard does it: the write and the index update in one transaction. */
async function edit(id: string, changes: { title?: string; content?: string; created_at?: string }) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("news").set(changes).where("id", "=", id).execute();
    await syncSearchIndex(trx, id);
  });
}

async function remove(id: string) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("news").where("id", "=", id).execute();
    await syncSearchIndex(trx, id);
  });
}

describe("ranking", () => {
  it("puts title matches above content matches, each newest first", async () => {
    await article(1, "افتتاح مدرسة في القبة");
    await article(2, "خبر محلي", "افتتحت البلدية مدرسة جديدة");
    await article(3, "مدرسة جديدة في الميناء");
    await article(4, "خبر آخر", "زيارة إلى مدرسة الفنون");
    expect(await titles("مدرسة")).toEqual(["مدرسة جديدة في الميناء", "افتتاح مدرسة في القبة", "خبر آخر", "خبر محلي"]);
  });

  it("counts a title match only when every word is in the title", async () => {
    await article(1, "مهرجان طرابلس", "ثقافي");
    await article(2, "مهرجان ثقافي في طرابلس");
    expect(await titles("مهرجان ثقافي")).toEqual(["مهرجان ثقافي في طرابلس", "مهرجان طرابلس"]);
  });

  it("lists words as typed before matches found only by removing a clitic the reader typed", async () => {
    await article(1, "خبر أول", "اجتماع المجلس في بلدية الميناء");
    await article(2, "خبر ثان", "قال إن لديه معلومات جديدة");
    expect(await titles("بلدية")).toEqual(["خبر أول", "خبر ثان"]);
  });
});

describe("variants", () => {
  it("finds plural and feminine endings both ways, the form as typed first", async () => {
    await article(1, "نقابة المهندسين تجتمع", "نص");
    await article(2, "خبر ثان", "حضر المهندسون الاجتماع");
    await article(3, "مهندس يفوز بجائزة", "نص");
    await article(4, "جامعة بيروت", "نص");
    await article(5, "خبر ثالث", "طلاب الجامعات في إضراب");
    expect(await titles("مهندسين")).toEqual(["نقابة المهندسين تجتمع", "مهندس يفوز بجائزة", "خبر ثان"]);
    expect(await titles("المهندسون")).toEqual(["مهندس يفوز بجائزة", "نقابة المهندسين تجتمع", "خبر ثان"]);
    expect(await titles("الجامعات")).toEqual(["جامعة بيروت", "خبر ثالث"]);
    expect(await titles("جامعة")).toEqual(["جامعة بيروت", "خبر ثالث"]);
  });

  it("finds hamza on و, on ي and alone as one seat, and hamza left off, the form as typed first", async () => {
    await article(1, "وزارة الشؤون الاجتماعية", "نص");
    await article(2, "مدير الشئون الإدارية", "نص");
    await article(3, "خبر", "عقد المؤتمر في بيروت");
    expect(await titles("شؤون")).toEqual(["وزارة الشؤون الاجتماعية", "مدير الشئون الإدارية"]);
    expect(await titles("شئون")).toEqual(["مدير الشئون الإدارية", "وزارة الشؤون الاجتماعية"]);
    expect(await titles("موتمر")).toEqual(["خبر"]);
    expect(await titles("مؤتمر")).toEqual(["خبر"]);
  });
});

describe("matching", () => {
  it("requires every word, in the title or the content", async () => {
    await article(1, "مهرجان الربيع", "في طرابلس");
    await article(2, "مهرجان الصيف", "في صيدا");
    expect(await titles("مهرجان طرابلس")).toEqual(["مهرجان الربيع"]);
    expect(await titles("مهرجان بيروت")).toEqual([]);
  });

  it("finds words as prefixes and with or without clitics", async () => {
    await article(1, "افتتاح المدرسة الجديدة", "وحضر الوزير والمعلمون");
    for (const query of [
      "مدرس",
      "مدرسة",
      "المدرسة",
      "والمدرسة",
      "بالمدرسة",
      "للمدرسة",
      "فالمدرسة",
      "ومعلمون",
      "المعلم",
      "وزير",
      "افتتاح",
    ]) {
      expect(await titles(query), query).toEqual(["افتتاح المدرسة الجديدة"]);
    }
  });

  it("finds a word written with or without hamza, diacritics, tatweel, ة as ه, in any digits", async () => {
    await article(1, "إغلاق الطريق في عكار عام ٢٠٢٦", "أعلنت البلدية إقفال الطريق الرئيسي بسبب الثلوج");
    await article(2, "اغلاق طريق المنية سنة 1999", "اعلن المسؤول اقفال الطريق");
    for (const query of ["اغلاق", "إغلاق", "أعلنت", "اعلنت", "إقفال", "الطريقُ", "الطـــريق", "البلديه"]) {
      expect((await titles(query)).length, query).toBeGreaterThan(0);
    }
    expect(await titles("2026")).toEqual(["إغلاق الطريق في عكار عام ٢٠٢٦"]);
    expect(await titles("١٩٩٩")).toEqual(["اغلاق طريق المنية سنة 1999"]);
    expect(await titles("إغلاق")).toHaveLength(2);
  });

  it("finds a prefix whether it stands for a few indexed words or for very many", async () => {
    const letters = "بتثجحخدذرزسشصضطظعغفقكلمني";
    const many = Array.from({ length: 80 }, (_, i) => `تجرب${letters[i % 26]}${letters[Math.floor(i / 26)]}`);
    await article(1, "خبر عن تجربة أولى");
    await article(2, "خبر عادي", many.join(" "));
    expect(await titles("تجرب")).toEqual(["خبر عن تجربة أولى", "خبر عادي"]);
    expect(await titles("تجر")).toEqual(["خبر عن تجربة أولى", "خبر عادي"]);
    expect(await titles("تجربة")).toEqual(["خبر عن تجربة أولى"]);
  });

  it("matches Latin words case-insensitively", async () => {
    await article(1, "تحديث تطبيق WhatsApp", "شركة Meta تعلن");
    expect(await titles("whatsapp meta")).toEqual(["تحديث تطبيق WhatsApp"]);
  });

  it("finds published articles only, whoever searches (decision 031)", async () => {
    await article(1, "مسودة عن المرفأ", "نص", { status: "draft" });
    await article(2, "خبر عن المرفأ");
    expect(await titles("المرفأ")).toEqual(["خبر عن المرفأ"]);
  });
});

describe("hostile queries", () => {
  it("treats FTS syntax as text and never fails", async () => {
    await article(1, "طرابلس near الميناء", "نص");
    const hostile = [
      '"',
      '""',
      "*",
      "NEAR(",
      ")",
      "(",
      "-",
      "^",
      ":",
      "{title}",
      "title:طرابلس",
      "AND",
      "OR NOT",
      "طرابلس NOT",
      '"طرابلس',
      "طرابلس*",
      "NEAR(طرابلس الميناء)",
      "' OR 1=1 --",
      "x".repeat(5000),
      "\u064e\u0651\u064b",
      "😀🎉👍🏽",
      "\u0000\uFFFF\uD800",
      "ـــ",
    ];
    for (const query of hostile) {
      const label = JSON.stringify(query.slice(0, 20));
      const { results, hasMore } = await searchNews(db, query);
      expect(hasMore, label).toBe(false);
      expect(
        results.map((r) => r.title).filter((title) => title !== "طرابلس near الميناء"),
        label,
      ).toEqual([]);
    }
    expect(await titles('"طرابلس')).toEqual(["طرابلس near الميناء"]);
    expect(await titles("NEAR(طرابلس الميناء)")).toEqual(["طرابلس near الميناء"]);
    expect(await titles("title:طرابلس")).toEqual([]);
    expect(await titles("\u064e\u0651\u064b")).toEqual([]);
    expect(await titles("😀🎉")).toEqual([]);
  });

  it("finds nothing for a blank query", async () => {
    await article(1, "خبر");
    expect(await searchNews(db, "   ")).toEqual({ results: [], hasMore: false });
  });
});

describe("keeping the index in step", () => {
  it("finds an edited article by its new words at once, and no longer by its old ones", async () => {
    const id = await article(1, "حريق في سوق الخضار", "اندلع حريق صباحاً");
    await edit(id, { title: "إخماد حريق في سوق السمك", content: "تمكن الدفاع المدني من الإخماد" });
    expect(await titles("الخضار")).toEqual([]);
    expect(await titles("اخماد السمك")).toEqual(["إخماد حريق في سوق السمك"]);
  });

  it("drops a deleted article at once", async () => {
    const id = await article(1, "مباراة كرة القدم");
    await article(2, "كرة السلة");
    await remove(id);
    expect(await titles("كرة")).toEqual(["كرة السلة"]);
  });

  it("re-sorts an article whose date changed", async () => {
    const old = await article(1, "ندوة أولى");
    await article(2, "ندوة ثانية");
    await edit(old, { created_at: new Date(base + 3 * 60_000).toISOString() });
    expect(await titles("ندوة")).toEqual(["ندوة أولى", "ندوة ثانية"]);
  });

  it("keeps articles of the same millisecond apart, even a thousand and more", async () => {
    for (let i = 0; i < 1002; i++) await article(5, `بيان رقم ${i}`);
    await article(6, "بيان أحدث");
    const first = await searchNews(db, "بيان");
    expect(first.results[0]?.title).toBe("بيان أحدث");
    const last = await searchNews(db, "بيان", { page: 101 });
    expect(last.results).toHaveLength(3);
    expect(last.hasMore).toBe(false);
    const count = await db
      .selectFrom("news")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1003);
  });

  it("the migration indexes the articles that were there before it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "akhbar-migrate-"));
    const older = openDatabase(path.join(dir, "old.db"));
    try {
      const migrator = new Migrator({ db: older, provider: { getMigrations: async () => migrationsFor("sqlite") } });
      await migrator.migrateTo("001-initial");
      const createdAt = new Date(base).toISOString();
      // Written by hand: createArticle needs the search tables, which schema 001 does not have.
      await older
        .insertInto("news")
        .values({
          id: "legacy1",
          title: "خبر قديم عن المرفأ",
          content: "نص",
          category: "local",
          status: "published",
          created_at: createdAt,
          images: "[]",
          image_url: null,
          video: null,
          is_video: 0,
          author_id: null,
          updated_at: null,
          published_at: createdAt,
        })
        .execute();
      await migrateToLatest(older);
      expect((await searchNews(older, "مرفا")).results.map((r) => r.id)).toEqual(["legacy1"]);
    } finally {
      await older.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("pages", () => {
  it("pages by ten across the title and content tiers without gaps or repeats", async () => {
    for (let i = 0; i < 12; i++) await article(i, `معرض الكتاب ${i}`);
    for (let i = 0; i < 13; i++) await article(100 + i, `خبر ${i}`, "زوار معرض الكتاب");
    const pages = await Promise.all([1, 2, 3, 4].map((page) => searchNews(db, "معرض", { page })));
    expect(pages.map((p) => p.results.length)).toEqual([SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE, 5, 0]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false, false]);
    const all = pages.flatMap((p) => p.results.map((r) => r.title));
    expect(new Set(all).size).toBe(25);
    expect(all.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `معرض الكتاب ${11 - i}`));
    expect(all.slice(12)).toEqual(Array.from({ length: 13 }, (_, i) => `خبر ${12 - i}`));
  });

  it("pages newest first through a word found in one article of ten, among more articles than the newest read first", async () => {
    // On PostgreSQL, such a word shows among the newest rows without filling a page there: it is
    // read from a span of recent rows (search-index.postgres.server.ts), then from every match.
    for (let i = 0; i < 600; i++) await article(i, `خبر ${i}`, i % 10 === 0 ? "افتتاح مزاد الكتب" : "نص عادي");
    const pages = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((page) => searchNews(db, "مزاد", { page })));
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, true, true, true, false, false]);
    expect(pages.flatMap((p) => p.results.map((r) => r.title))).toEqual(
      Array.from({ length: 60 }, (_, i) => `خبر ${590 - i * 10}`),
    );
  });

  it("gives each result its highlighted title and snippet", async () => {
    await article(1, "تكريم المتفوقين في طرابلس", "أقامت الثانوية حفلاً لتكريم المتفوقين بحضور الأهالي");
    const [result] = (await searchNews(db, "تكريم")).results;
    expect(result?.titleSegments.filter((s) => s.match).map((s) => s.text)).toEqual(["تكريم"]);
    expect(result?.snippet.filter((s) => s.match).map((s) => s.text)).toEqual(["لتكريم"]);
    expect(result?.category).toBe("local");
  });
});
