import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { documentFromPlainText } from "~/lib/rich-text/document";
import type { CurrentUser } from "~/server/accounts/guards.server";
import type { DB } from "~/server/db/db.server";
import { createArticle } from "~/server/news/articles-write.server";
import { readEventsAfter, newestEventId } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import { prepareAlerts } from "~/server/push/prepare-alerts.server";
import { listAlerts } from "~/server/news/push-alerts.server";
import { liveArticleIds, readCoverage } from "./coverage-read.server";
import {
  closeCoverage,
  deleteLiveUpdate,
  editLiveUpdate,
  openCoverage,
  pinLiveUpdate,
  postLiveUpdate,
  type CoverageWriter,
} from "./coverage-write.server";

let db: DB;
let cleanup: () => Promise<void>;
let now = Date.parse("2026-11-26T10:00:00Z");
let writer: CoverageWriter;
beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  writer = { db, clock: { now: () => new Date(now) } };
});
afterEach(async () => cleanup());

const editor: CurrentUser = { id: "ed", name: "ريم", email: "ed@example.com", role: "editor" };
const owner: CurrentUser = { id: "ow", name: "سامر", email: "ow@example.com", role: "author" };
const other: CurrentUser = { id: "ot", name: "هلا", email: "ot@example.com", role: "author" };
const reader: CurrentUser = { id: "rd", name: "قارئ", email: "rd@example.com", role: "user" };
const body = (text: string) => JSON.stringify(documentFromPlainText(text));

async function story(): Promise<string> {
  return (
    await createArticle(db, {
      title: "فرز الأصوات في طرابلس",
      content: "نص",
      category: "local",
      authorId: owner.id,
      silent: true,
    })
  ).id;
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.code;
}

describe("live coverage", () => {
  it("opens, posts, edits, pins, deletes and closes, each write with one outbox event carrying the change", async () => {
    const id = await story();
    const start = await newestEventId(db);
    await openCoverage(writer, editor, id);
    now += 60_000;
    const first = await postLiveUpdate(writer, owner, id, { body: body("بدأ الفرز في القلمون") });
    now += 60_000;
    const second = await postLiveUpdate(writer, editor, id, {
      body: body("النتائج الأولية في الميناء"),
      sendAlert: true,
    });
    await pinLiveUpdate(writer, editor, id, first, true);
    await editLiveUpdate(writer, owner, id, first, { body: body("بدأ الفرز في القلمون والبداوي") });
    let view = await readCoverage(db, id);
    expect(view.coverage).toMatchObject({ state: "live", summary: null, endedAt: null });
    // The pinned update first, then the newest.
    expect(view.updates.map((u) => [u.id, u.text, u.pinned, u.alert, u.authorName])).toEqual([
      [first, "بدأ الفرز في القلمون والبداوي", true, false, "سامر"],
      [second, "النتائج الأولية في الميناء", false, true, "ريم"],
    ]);
    expect(await liveArticleIds(db, [id, "other"])).toEqual(new Set([id]));

    await deleteLiveUpdate(writer, editor, id, second);
    await closeCoverage(writer, editor, id, { summary: "انتهى الفرز بفوز اللائحة الأولى" });
    view = await readCoverage(db, id);
    expect(view.coverage).toMatchObject({
      state: "closed",
      summary: "انتهى الفرز بفوز اللائحة الأولى",
      endedAt: new Date(now).toISOString(),
    });
    expect(view.updates.map((u) => u.id)).toEqual([first]);
    expect(await liveArticleIds(db, [id])).toEqual(new Set());

    const events = await readEventsAfter(db, start, 100);
    expect(events.map((e) => [e.kind, e.articleId, e.coverage?.type])).toEqual([
      ["live-coverage", id, "opened"],
      ["live-coverage", id, "posted"],
      ["live-coverage", id, "posted"],
      ["live-coverage", id, "edited"],
      ["live-coverage", id, "edited"],
      ["live-coverage", id, "deleted"],
      ["live-coverage", id, "closed"],
    ]);
    expect(events[4]!.coverage).toMatchObject({
      type: "edited",
      update: { id: first, pinned: true, text: "بدأ الفرز في القلمون والبداوي" },
    });
  });

  it("lets editors and the story's author post; only editors open, pin and close; authors change their own updates only", async () => {
    const id = await story();
    expect(await refusal(openCoverage(writer, owner, id))).toBe("forbidden");
    expect(await refusal(postLiveUpdate(writer, editor, id, { body: body("قبل الفتح") }))).toBe("conflict");
    await openCoverage(writer, editor, id);
    expect(await refusal(openCoverage(writer, editor, id))).toBe("conflict");
    expect(await refusal(postLiveUpdate(writer, other, id, { body: body("ليس خبري") }))).toBe("forbidden");
    expect(await refusal(postLiveUpdate(writer, reader, id, { body: body("قارئ") }))).toBe("forbidden");
    const byEditor = await postLiveUpdate(writer, editor, id, { body: body("من المحررة") });
    const byOwner = await postLiveUpdate(writer, owner, id, { body: body("من الكاتب") });
    expect(await refusal(editLiveUpdate(writer, owner, id, byEditor, { body: body("تعديل") }))).toBe("forbidden");
    expect(await refusal(deleteLiveUpdate(writer, owner, id, byEditor))).toBe("forbidden");
    expect(await refusal(pinLiveUpdate(writer, owner, id, byOwner, true))).toBe("forbidden");
    expect(await refusal(closeCoverage(writer, owner, id, {}))).toBe("forbidden");
    await deleteLiveUpdate(writer, owner, id, byOwner);
    expect(await refusal(deleteLiveUpdate(writer, editor, id, byOwner))).toBe("not-found");
    expect(await refusal(openCoverage(writer, editor, "no-such-story"))).toBe("not-found");
    expect((await readCoverage(db, id)).updates.map((u) => u.id)).toEqual([byEditor]);
  });

  it("refuses an empty, malformed or too long update and a too long summary with a 400, storing nothing", async () => {
    const id = await story();
    await openCoverage(writer, editor, id);
    const before = await newestEventId(db);
    for (const bad of [
      undefined,
      "",
      "not json",
      JSON.stringify({ type: "doc", content: [] }),
      JSON.stringify({ type: "doc", content: [{ type: "script" }] }),
      body("ك".repeat(30_000)),
    ]) {
      expect(await refusal(postLiveUpdate(writer, editor, id, { body: bad }))).toBe("validation");
    }
    expect(await refusal(closeCoverage(writer, editor, id, { summary: "خ".repeat(3_000) }))).toBe("validation");
    expect(await newestEventId(db)).toBe(before);
    expect(await readCoverage(db, id)).toMatchObject({ coverage: { state: "live" }, updates: [] });
  });

  it("queues an update marked as an alert with the update, once, and makes its deliveries to the update's address", async () => {
    const id = await story();
    await openCoverage(writer, editor, id);
    await db
      .insertInto("push_subscriptions")
      .values({
        endpoint: "https://push.example/one",
        p256dh: "k",
        auth: "a",
        categories: JSON.stringify(["local"]),
        created_at: new Date(now).toISOString(),
      })
      .execute();
    expect(await refusal(postLiveUpdate(writer, owner, id, { body: body("من الكاتب"), sendAlert: true }))).toBe(
      "validation",
    );
    const quiet = await postLiveUpdate(writer, editor, id, { body: body("تحديث عادي") });
    const alerted = await postLiveUpdate(writer, editor, id, {
      body: body("عاجل: إقفال صناديق الاقتراع"),
      sendAlert: true,
    });
    const alerts = await db.selectFrom("push_alerts").select(["id", "article_id", "live_update_id"]).execute();
    expect(alerts.map((a) => [a.article_id, a.live_update_id])).toEqual([[id, alerted]]);
    expect(quiet).not.toBe(alerted);

    expect(await prepareAlerts(db, "https://akhbar.example", new Date(now))).toBe(1);
    expect(await prepareAlerts(db, "https://akhbar.example", new Date(now))).toBe(0);
    const { payload } = await db.selectFrom("push_alerts").select("payload").executeTakeFirstOrThrow();
    expect(JSON.parse(payload!)).toMatchObject({
      title: "فرز الأصوات في طرابلس",
      body: "عاجل: إقفال صناديق الاقتراع",
      url: expect.stringMatching(new RegExp(`#update-${alerted}$`)),
      tag: `live-${alerted}`,
    });
    expect(await db.selectFrom("push_deliveries").select("endpoint").execute()).toEqual([
      { endpoint: "https://push.example/one" },
    ]);
    // The newsroom's alerts page names the update's story.
    expect((await listAlerts(db)).map((alert) => alert.title)).toEqual(["فرز الأصوات في طرابلس"]);
    // The limit per hour holds for updates as for stories.
    const limited = { ...writer, alertsPerHour: async () => 1 };
    expect(await refusal(postLiveUpdate(limited, editor, id, { body: body("تنبيه ثان"), sendAlert: true }))).toBe(
      "validation",
    );
    // Confirmed, as the article form confirms: posted, and its alert queued.
    const confirmed = await postLiveUpdate(limited, editor, id, {
      body: body("تنبيه ثان"),
      sendAlert: true,
      confirmAlert: true,
    });
    expect(
      await db.selectFrom("push_alerts").select("live_update_id").where("live_update_id", "=", confirmed).execute(),
    ).toHaveLength(1);
  });

  it("posts a form sent twice with the same key once, even at the same moment, and refuses a key of another story's update", async () => {
    const id = await story();
    await openCoverage(writer, editor, id);
    const form = { body: body("إعادة فرز صندوق"), submissionId: "desk-form-0001" };
    const [first, second] = await Promise.all([
      postLiveUpdate(writer, editor, id, form),
      postLiveUpdate(writer, editor, id, form),
    ]);
    const again = await postLiveUpdate(writer, owner, id, form);
    expect(new Set([first, second, again])).toEqual(new Set([first]));
    expect((await readCoverage(db, id)).updates.map((u) => u.id)).toEqual([first]);
    expect((await readEventsAfter(db, 0, 100)).filter((e) => e.coverage?.type === "posted")).toHaveLength(1);

    const elsewhere = await story();
    await openCoverage(writer, editor, elsewhere);
    expect(await refusal(postLiveUpdate(writer, editor, elsewhere, form))).toBe("conflict");
    expect(await refusal(postLiveUpdate(writer, editor, id, { ...form, submissionId: "x" }))).toBe("validation");
  });
});
