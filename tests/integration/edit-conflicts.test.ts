import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { conflictMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { articleForm, createTestArticle } from "../../harness/articles";
import { callApi, get, post, type Session } from "../../harness/http-client";
import { newSiteClock } from "../support/site-clock";
import { connectSse, type SseClient } from "../support/sse";
import type { TestServer, TestSite } from "../../harness/test-server";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * Two people on one story, each on another instance of one site (a SQLite file, or one PostgreSQL
 * database with TEST_DATABASE=postgres): a save based on a version the other replaced is refused
 * (409), and each sees who else has the form open, through the outbox (decision 034).
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let editor: Session;
let admin: Session;
const clock = newSiteClock();

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({ ...clock.env }));
  editor = {
    cookie: await signedInAs(db, a.site, { email: "salma@example.com", username: "سلمى المحررة", role: "editor" }),
  };
  admin = {
    cookie: await signedInAs(db, a.site, { email: "karim@example.com", username: "كريم المدير", role: "admin" }),
  };
}, 120_000);
afterAll(async () => {
  await stopServerAndDb({ site, db });
  clock.remove();
});

const edit = (title: string, baseVersion?: number) =>
  articleForm({
    title,
    content: "نص الخبر بعد التعديل",
    category: "local",
    status: "published",
    ...(baseVersion === undefined ? {} : { baseVersion: String(baseVersion) }),
  });
const put = (server: TestServer, session: Session, id: string, form: FormData) =>
  callApi(`${server.url}/api/news/${id}`, "PUT", form, session, { origin: server.url });
const titleOf = async (id: string) =>
  await db.selectFrom("news").select(["title", "version"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("a save based on an older version, across instances", () => {
  it("is refused with 409, the standard error body and the story as saved now, and nothing is written; saved again on the new version it goes through", async () => {
    const { id } = await createTestArticle(db, { title: "الأصل" });
    const first = await put(a, editor, id, edit("تعديل سلمى", 1));
    expect(first).toMatchObject({ status: 200, json: { id, version: 2 } });

    const stale = await put(b, admin, id, edit("تعديل كريم", 1));
    expect(stale.status).toBe(409);
    const { error, current } = stale.json as typeof stale.json & {
      current: { title: string; standfirst: string | null; version: number };
    };
    expect(error).toEqual({ code: "edit-conflict", message: conflictMessages.refused });
    expect(await titleOf(id)).toMatchObject({ title: "تعديل سلمى", version: 2 });

    // What the form compares with, in the refusal itself: the story as saved now, as GET gives it, with its version.
    expect(current).toMatchObject({ id, title: "تعديل سلمى", version: 2 });
    expect(current).toEqual(await (await get(`${b.url}/api/news/${id}`, admin)).json());
    expect(await put(b, admin, id, edit("تعديل كريم", current.version))).toMatchObject({
      status: 200,
      json: { version: 3 },
    });
    expect(await titleOf(id)).toMatchObject({ title: "تعديل كريم", version: 3 });
  });

  it("the form's page without JavaScript and autosave are refused the same way", async () => {
    const { id } = await createTestArticle(db, { title: "مسودة مشتركة", status: "draft" });
    expect(
      (
        await put(
          a,
          editor,
          id,
          articleForm({ title: "مسودة سلمى", content: "نص", category: "local", status: "draft", baseVersion: "1" }),
        )
      ).status,
    ).toBe(200);

    const page = await fetch(`${b.url}/edit-news/${id}`, {
      method: "POST",
      body: articleForm({ title: "صفحة كريم", content: "نص", category: "local", status: "draft", baseVersion: "1" }),
      headers: { cookie: admin.cookie, origin: b.url },
    });
    expect(page.status).toBe(409);
    const autosave = new FormData();
    for (const [name, value] of Object.entries({
      id,
      title: "حفظ تلقائي قديم",
      body: "",
      content: "نص",
      category: "local",
      baseVersion: "1",
    }))
      autosave.set(name, value);
    const refused = await callApi(`${b.url}/api/news/autosave`, "POST", autosave, admin, { origin: b.url });
    expect(refused).toMatchObject({
      status: 409,
      json: { error: { code: "edit-conflict" }, current: { id, title: "مسودة سلمى", version: 2 } },
    });
    expect(await titleOf(id)).toMatchObject({ title: "مسودة سلمى", version: 2 });
  });
});

describe("a save of an existing story that names no base version", () => {
  /** Everything a refused save must leave as it was: the row, its revisions, the outbox. */
  const stateOf = async (id: string) =>
    JSON.stringify([
      await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
      await db.selectFrom("news_revisions").selectAll().where("news_id", "=", id).orderBy("id").execute(),
      (await db.selectFrom("events").select("id").execute()).length,
    ]);
  const refusal = {
    code: "validation",
    message: conflictMessages.baseVersionRequired,
    reason: "base-version-required",
    fields: { form: conflictMessages.baseVersionRequired, baseVersion: conflictMessages.baseVersionField },
  };
  const draftText = (id: string, extra: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of Object.entries({
      id,
      title: "حفظ تلقائي بلا نسخة",
      content: "نص",
      category: "local",
      ...extra,
    }))
      body.set(name, value);
    return body;
  };

  it("the API's PUT without one, or with one that is no version, is a 400 naming the field, and nothing is written", async () => {
    const { id } = await createTestArticle(db, { title: "لا يتغير" });
    const before = await stateOf(id);
    for (const base of [undefined, "", "abc", "0", "1.5", "-1"]) {
      const form = articleForm({
        title: "تعديل بلا أساس",
        content: "نص",
        category: "local",
        status: "published",
        ...(base === undefined ? {} : { baseVersion: base }),
      });
      const refused = await put(a, editor, id, form);
      expect(refused, String(base)).toEqual({ status: 400, json: { error: refusal } });
    }
    expect(await stateOf(id)).toBe(before);
    expect(await put(a, editor, id, edit("تعديل على نسخته", 1))).toMatchObject({ status: 200, json: { version: 2 } });
  });

  it("the edit page's post says the form is out of date, autosave into a draft is refused, and nothing is written", async () => {
    const { id } = await createTestArticle(db, { title: "مسودة لا تتغير", status: "draft" });
    const before = await stateOf(id);
    const page = await fetch(`${a.url}/edit-news/${id}`, {
      method: "POST",
      body: articleForm({ title: "صفحة قديمة", content: "نص", category: "local", status: "draft" }),
      headers: { cookie: editor.cookie, origin: a.url },
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(new RegExp(`role="alert"[^>]*>[^<]*${conflictMessages.baseVersionRequired}`));
    for (const extra of [{}, { baseVersion: "x" }] as Record<string, string>[]) {
      const autosaved = await callApi(`${a.url}/api/news/autosave`, "POST", draftText(id, extra), editor, {
        origin: a.url,
      });
      expect(autosaved).toEqual({ status: 400, json: { error: refusal } });
    }
    expect(await stateOf(id)).toBe(before);
    expect(
      await callApi(`${a.url}/api/news/autosave`, "POST", draftText(id, { baseVersion: "1" }), editor, {
        origin: a.url,
      }),
    ).toMatchObject({ status: 200, json: { version: 2 } });
  });

  it("a restore without the version its preview showed is refused with the same message, and nothing is restored", async () => {
    const { id } = await createTestArticle(db, { title: "العنوان الأول" });
    expect((await put(a, admin, id, edit("العنوان الثاني", 1))).status).toBe(200);
    const { id: revision } = await db
      .selectFrom("news_revisions")
      .select("id")
      .where("news_id", "=", id)
      .executeTakeFirstOrThrow();
    const restore = (fields: Record<string, string>) =>
      post(`${a.url}/edit-news/${id}/revisions/${revision}`, fields, admin, { origin: a.url });
    const before = await stateOf(id);
    const unnamed: Record<string, string>[] = [{ mode: "full" }, { mode: "text", baseVersion: "two" }];
    for (const fields of unnamed) {
      const refused = await restore(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toContain(conflictMessages.baseVersionRequired);
    }
    expect(await stateOf(id)).toBe(before);
    expect((await restore({ mode: "full", baseVersion: "2" })).status).toBe(302);
    expect(await titleOf(id)).toMatchObject({ title: "العنوان الأول", version: 3 });
  });
});

describe("who else has the form open, across instances", () => {
  const announce = (server: TestServer, session: Session, id: string, tab: string, state: string) => {
    const body = new FormData();
    body.set("tab", tab);
    body.set("state", state);
    return fetch(`${server.url}/api/news/${id}/presence`, {
      method: "POST",
      body,
      headers: { cookie: session.cookie, origin: server.url },
    });
  };
  const names = (client: SseClient) => (client.messages.at(-1)?.data as { editors: string[] } | undefined)?.editors;
  const presence = (server: TestServer, session: Session, id: string) =>
    connectSse(`${server.url}/api/news/${id}/presence`, { cookie: session.cookie });

  it("an announcement on A reaches the form open on B; leaving, or the site's clock passing a minute without a heartbeat, takes the name off", async () => {
    const { id } = await createTestArticle(db, { title: "خبر يحرره اثنان" });
    const onB = await presence(b, editor, id);
    const onA = await presence(a, admin, id);
    try {
      expect(onB.status).toBe(200);
      await onB.waitFor(1);
      expect(names(onB)).toEqual([]);

      expect((await announce(a, admin, id, "tab-karim-1", "open")).status).toBe(204);
      expect((await announce(b, editor, id, "tab-salma-1", "open")).status).toBe(204);
      await vi.waitFor(() => expect(names(onB)).toEqual(["كريم المدير"]), { timeout: 3_000, interval: 20 });
      // Each sees the others, not themselves.
      await vi.waitFor(() => expect(names(onA)).toEqual(["سلمى المحررة"]), { timeout: 3_000, interval: 20 });

      await announce(a, admin, id, "tab-karim-1", "leave");
      await vi.waitFor(() => expect(names(onB)).toEqual([]), { timeout: 3_000, interval: 20 });

      await announce(a, admin, id, "tab-karim-2", "open");
      await vi.waitFor(() => expect(names(onB)).toEqual(["كريم المدير"]), { timeout: 3_000, interval: 20 });
      clock.moveTo(clock.now() + 2 * 60_000);
      await vi.waitFor(() => expect(names(onB)).toEqual([]), { timeout: 8_000, interval: 50 });
    } finally {
      onA.close();
      onB.close();
    }
  });

  it("refuses a bad tab id or state with 400, and a story the member may not edit", async () => {
    const { id } = await createTestArticle(db, { title: "خبر" });
    expect((await announce(a, admin, id, "x", "open")).status).toBe(400);
    expect((await announce(a, admin, id, "tab-karim-9", "away")).status).toBe(400);
    expect((await announce(a, admin, "no-such-story", "tab-karim-9", "open")).status).toBe(404);
  });
});
