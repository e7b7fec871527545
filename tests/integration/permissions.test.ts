/**
 * The permission matrix: every route that changes something (and every newsroom page) is tried by a
 * visitor, a reader, an author on their own article, another author, an editor and an admin. Only the
 * allowed roles succeed; the others are refused (pages: sign-in redirect or 403; API: 401 or 403) and
 * the database, its outbox and revisions included, is left exactly as it was. Every new mutating route
 * joins ROUTES: a test fails when a module in app/routes.ts exports an action without a case here.
 */
import { execFile } from "node:child_process";
import { createECDH } from "node:crypto";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import type { DB } from "~/server/db/db.server";
import { updateArticle, type ArticleChanges } from "~/server/news/articles-write.server";
import { listRevisions } from "~/server/news/revisions.server";
import { trashArticle } from "~/server/news/trash.server";
import { choosePlacement } from "~/server/news/front-page.server";
import { topicsOfArticle } from "~/server/news/topics.server";
import { openCoverage, postLiveUpdate } from "~/server/coverage/coverage-write.server";
import { openToken } from "~/server/news/push-open-tokens.server";
import { linkToken, type LinkPurpose } from "~/server/newsletter/links.server";
import { topicFeedPath, topicPath } from "~/lib/topics";
import { get, post, VISITOR, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { createTestAccount, sessionCookie } from "../../harness/accounts";
import { articleForm, createTestArticle, publishForm, storedVersion } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

const execFileAsync = promisify(execFile);

/** `owner` is the author who wrote the disposable articles; `author` is another author. */
type Role = "visitor" | "user" | "owner" | "author" | "editor" | "admin";
type Context = {
  publishedId: string;
  draftId: string;
  reviewId: string;
  trashedId: string;
  /** A revision of the owner's draft, and one of the published article. */
  draftRevision: number;
  publishedRevision: number;
  /** A draft an editor wrote: not the owner's. */
  editorDraftId: string;
  role: Role;
  run: number;
  /** Two topics made for this case: the first renamed or merged into the second. */
  topicIds: [string, string];
  /** The version each story above is at: the base its saves name (decision 034). */
  base: { draft: string; published: string; editorDraft: string };
  /** An update the owner posted into the published story's live coverage (open). */
  liveUpdateId: string;
};
type RouteCase = {
  name: string;
  /** A page refuses the signed-out with a redirect to sign in; the API with a 401. */
  kind: "page" | "api";
  allowed: Role[];
  /** What the case needs in place before the database is compared: a front page choice to remove. */
  prepare?: () => Promise<void>;
  send: (base: string, session: Session, ctx: Context) => Promise<Response>;
};

const EVERYONE: Role[] = ["visitor", "user", "owner", "author", "editor", "admin"];
const SIGNED_IN: Role[] = ["user", "owner", "author", "editor", "admin"];
const NEWSROOM: Role[] = ["owner", "author", "editor", "admin"];
const OWNER_AND_EDITORS: Role[] = ["owner", "editor", "admin"];
const EDITORS: Role[] = ["editor", "admin"];
const ADMINS: Role[] = ["admin"];

const LIVE_BODY = JSON.stringify({
  type: "doc",
  content: [{ type: "paragraph", content: [{ type: "text", text: "تحديث من المصفوفة" }] }],
});
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const EMPTY_PAGE = JSON.stringify({ type: "doc", content: [] });
/** A valid settings form: the admin's case saves it. */
const SETTINGS_FORM = {
  name: "موقع الاختبار",
  page_who: EMPTY_PAGE,
  page_contact: EMPTY_PAGE,
  page_privacy: EMPTY_PAGE,
  page_development: EMPTY_PAGE,
};

const ROUTES: RouteCase[] = [
  {
    name: "POST /api/news/:id/visit",
    kind: "api",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      post(`${base}/api/news/${ctx.publishedId}/visit`, { reader: "matrix-reader-000001" }, session),
  },
  {
    name: "POST /api/site-visit",
    kind: "api",
    allowed: EVERYONE,
    send: (base, session) => post(`${base}/api/site-visit`, { reader: "matrix-reader-000001" }, session),
  },
  {
    name: "POST /autenction (register)",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      post(
        `${base}/autenction`,
        { intent: "signup", username: "جديد", email: `new-${ctx.role}-${ctx.run}@example.com`, password: "secret123" },
        session,
      ),
  },
  {
    name: "POST /sign-out",
    kind: "page",
    allowed: SIGNED_IN,
    send: (base, session) => post(`${base}/sign-out`, {}, session),
  },
  {
    name: "GET /dashboard",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/dashboard`, session),
  },
  {
    name: "POST /dashboard (publish)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session) => post(`${base}/dashboard`, publishForm("من النموذج"), session),
  },
  {
    name: "POST /dashboard (draft)",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => post(`${base}/dashboard`, publishForm("مسودة من النموذج", { status: "draft" }), session),
  },
  {
    name: "POST /api/news (publish)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session) => post(`${base}/api/news`, publishForm("من الواجهة البرمجية"), session),
  },
  {
    name: "POST /api/news (scheduled)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session) =>
      post(`${base}/api/news`, publishForm("مجدول", { status: "scheduled", publishAt: inAnHour() }), session),
  },
  {
    name: "POST /api/news (review)",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session) => post(`${base}/api/news`, publishForm("للمراجعة", { status: "review" }), session),
  },
  {
    name: "GET /edit-news/:id (own draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) => get(`${base}/edit-news/${ctx.draftId}`, session),
  },
  {
    name: "GET /edit-news/:id (published)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) => get(`${base}/edit-news/${ctx.publishedId}`, session),
  },
  {
    name: "POST /edit-news/:id (draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.draftId}`,
        publishForm("معدّل", { status: "draft", baseVersion: ctx.base.draft }),
        session,
      ),
  },
  {
    name: "POST /edit-news/:id (publish)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/edit-news/${ctx.draftId}`, publishForm("معدّل", { baseVersion: ctx.base.draft }), session),
  },
  {
    name: "POST /edit-news/:id (published article)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.publishedId}`,
        publishForm("معدّل بعد النشر", { status: "draft", baseVersion: ctx.base.published }),
        session,
      ),
  },
  {
    name: "GET /api/news/:id",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) => get(`${base}/api/news/${ctx.draftId}`, session),
  },
  {
    name: "PUT /api/news/:id (review)",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      send(
        "PUT",
        `${base}/api/news/${ctx.draftId}`,
        publishForm("معدّل", { status: "review", baseVersion: ctx.base.draft }),
        session,
      ),
  },
  {
    name: "PUT /api/news/:id (scheduled)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      send(
        "PUT",
        `${base}/api/news/${ctx.draftId}`,
        publishForm("معدّل", { status: "scheduled", publishAt: inAnHour(), baseVersion: ctx.base.draft }),
        session,
      ),
  },
  {
    name: "POST /edit-news/:id/send-back",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) => post(`${base}/edit-news/${ctx.reviewId}/send-back`, { note: "أضف مصدراً" }, session),
  },
  {
    name: "POST /news/:id/delete",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) => post(`${base}/news/${ctx.draftId}/delete`, { redirectTo: "/" }, session),
  },
  {
    name: "DELETE /api/news/:id",
    kind: "api",
    allowed: EDITORS,
    send: (base, session, ctx) => send("DELETE", `${base}/api/news/${ctx.draftId}`, undefined, session),
  },
  {
    name: "GET /dashboard/settings",
    kind: "page",
    allowed: ADMINS,
    send: (base, session) => get(`${base}/dashboard/settings`, session),
  },
  {
    name: "POST /dashboard/settings",
    kind: "page",
    allowed: ADMINS,
    send: (base, session) => post(`${base}/dashboard/settings`, SETTINGS_FORM, session),
  },
  {
    name: "GET /dashboard/front-page",
    kind: "page",
    allowed: EDITORS,
    send: (base, session) => get(`${base}/dashboard/front-page`, session),
  },
  {
    name: "POST /dashboard/front-page (choose)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/dashboard/front-page`,
        { intent: "choose", place: "pin", newsId: ctx.publishedId, until: inAnHour() },
        session,
      ),
  },
  {
    name: "POST /dashboard/front-page (remove)",
    kind: "page",
    allowed: EDITORS,
    prepare: () =>
      choosePlacement(db, { place: "pin", newsId: publishedId, until: inAnHour() }, "matrix", new Date()).then(
        () => undefined,
      ),
    send: (base, session) => post(`${base}/dashboard/front-page`, { intent: "remove", slot: "pin:local" }, session),
  },
  {
    name: "GET /dashboard/trash",
    kind: "page",
    allowed: EDITORS,
    send: (base, session) => get(`${base}/dashboard/trash`, session),
  },
  {
    name: "POST /dashboard/trash (restore)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) => post(`${base}/dashboard/trash`, { intent: "restore", id: ctx.trashedId }, session),
  },
  {
    name: "POST /dashboard/trash (delete for good)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) => post(`${base}/dashboard/trash`, { intent: "delete", id: ctx.trashedId }, session),
  },
  {
    name: "GET /edit-news/:id/revisions/:revisionId (own draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) => get(`${base}/edit-news/${ctx.draftId}/revisions/${ctx.draftRevision}`, session),
  },
  {
    name: "GET /edit-news/:id/revisions/:revisionId (published)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      get(`${base}/edit-news/${ctx.publishedId}/revisions/${ctx.publishedRevision}`, session),
  },
  {
    name: "POST /edit-news/:id/revisions/:revisionId (restore own draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.draftId}/revisions/${ctx.draftRevision}`,
        { mode: "full", baseVersion: ctx.base.draft },
        session,
      ),
  },
  {
    name: "POST /edit-news/:id/revisions/:revisionId (restore own draft's text)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.draftId}/revisions/${ctx.draftRevision}`,
        { mode: "text", baseVersion: ctx.base.draft },
        session,
      ),
  },
  {
    name: "GET /edit-news/:id/compare (own draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      get(`${base}/edit-news/${ctx.draftId}/compare?from=${ctx.draftRevision}&to=current`, session),
  },
  {
    name: "GET /edit-news/:id/compare (published)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      get(`${base}/edit-news/${ctx.publishedId}/compare?from=${ctx.publishedRevision}&to=current`, session),
  },
  {
    name: "GET /dashboard/calendar",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/dashboard/calendar`, session),
  },
  {
    name: "POST /edit-news/:id/revisions/:revisionId (restore published)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.publishedId}/revisions/${ctx.publishedRevision}`,
        { mode: "full", baseVersion: ctx.base.published },
        session,
      ),
  },
  {
    name: "POST /dashboard/preview (new article)",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => post(`${base}/dashboard/preview`, publishForm("معاينة"), session),
  },
  {
    name: "POST /dashboard/preview (own draft)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/dashboard/preview`, publishForm("معاينة", { id: ctx.draftId }), session),
  },
  {
    name: "POST /dashboard/preview (published)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/dashboard/preview`, publishForm("معاينة", { id: ctx.publishedId }), session),
  },
  {
    name: "POST /api/news/autosave (own draft)",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/api/news/autosave`,
        publishForm("حفظ تلقائي", { id: ctx.draftId, baseVersion: ctx.base.draft }),
        session,
      ),
  },
  {
    name: "POST /api/news/autosave (an editor's draft)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/api/news/autosave`,
        publishForm("حفظ تلقائي", { id: ctx.editorDraftId, baseVersion: ctx.base.editorDraft }),
        session,
      ),
  },
  {
    name: "POST /api/news/autosave (new draft)",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session, ctx) =>
      post(
        `${base}/api/news/autosave`,
        publishForm("حفظ تلقائي", { submissionId: `autosave-${ctx.role}-${ctx.run}` }),
        session,
      ),
  },
  {
    name: "POST /api/news/:id/presence (own draft's form open)",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/api/news/${ctx.draftId}/presence`, { tab: `tab-${ctx.role}-${ctx.run}`, state: "open" }, session),
  },
  {
    name: "POST /api/news/:id/presence (published story's form open)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/api/news/${ctx.publishedId}/presence`,
        { tab: `tab-${ctx.role}-${ctx.run}`, state: "open" },
        session,
      ),
  },
  {
    name: "GET /edit-news/:id/live (own story)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) => get(`${base}/edit-news/${ctx.publishedId}/live`, session),
  },
  {
    name: "POST /edit-news/:id/live (open)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) => post(`${base}/edit-news/${ctx.draftId}/live`, { intent: "open" }, session),
  },
  {
    name: "POST /edit-news/:id/live (post into own story)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/edit-news/${ctx.publishedId}/live`, { intent: "post", body: LIVE_BODY }, session),
  },
  {
    name: "POST /edit-news/:id/live (edit own update)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/edit-news/${ctx.publishedId}/live`,
        { intent: "edit", updateId: ctx.liveUpdateId, body: LIVE_BODY },
        session,
      ),
  },
  {
    name: "POST /edit-news/:id/live (delete own update)",
    kind: "page",
    allowed: OWNER_AND_EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/edit-news/${ctx.publishedId}/live`, { intent: "delete", updateId: ctx.liveUpdateId }, session),
  },
  {
    name: "POST /edit-news/:id/live (pin)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/edit-news/${ctx.publishedId}/live`, { intent: "pin", updateId: ctx.liveUpdateId }, session),
  },
  {
    name: "POST /edit-news/:id/live (close)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/edit-news/${ctx.publishedId}/live`, { intent: "close", summary: "انتهت" }, session),
  },
  {
    name: "GET /api/news/:id/presence (who else has the own draft's form open)",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    send: async (base, session, ctx) => {
      // A stream: its head says allowed or refused; then it is closed.
      const stop = new AbortController();
      const response = await fetch(`${base}/api/news/${ctx.draftId}/presence`, {
        headers: { cookie: session.cookie },
        signal: stop.signal,
        redirect: "manual",
      });
      stop.abort();
      return response;
    },
  },
  {
    name: "POST /api/media/images (an image for the body)",
    kind: "api",
    allowed: NEWSROOM,
    send: async (base, session) =>
      post(
        `${base}/api/media/images`,
        articleForm({}, [{ field: "image", name: "in-body.png", bytes: await pngBytes(), type: "image/png" }]),
        session,
      ),
  },
  {
    name: "GET /author/:username",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session) => get(`${base}/author/${encodeURIComponent("كاتبة")}`, session),
  },
  {
    name: "GET /dashboard/users",
    kind: "page",
    allowed: ADMINS,
    send: (base, session) => get(`${base}/dashboard/users`, session),
  },
  {
    name: "POST /dashboard/users (role)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session) =>
      post(`${base}/dashboard/users`, { intent: "role", userId: readerId, role: "user" }, session),
  },
  {
    name: "GET /dashboard/account",
    kind: "page",
    allowed: SIGNED_IN,
    send: (base, session) => get(`${base}/dashboard/account`, session),
  },
  {
    name: "POST /dashboard/account (rename)",
    kind: "page",
    allowed: SIGNED_IN,
    // Each account keeps its own name: the author page case above looks one up.
    send: (base, session, ctx) =>
      post(`${base}/dashboard/account`, { intent: "rename", username: NAMES[ctx.role] }, session),
  },
  // Topics: the reader's page and feed, the newsroom's autocomplete, the admins' screen.
  {
    name: "GET /topic/:slug",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session) => get(`${base}${topicPath("طرابلس")}`, session),
  },
  {
    name: "GET /topic/:slug/rss.xml",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session) => get(`${base}${topicFeedPath("طرابلس")}`, session),
  },
  {
    name: "GET /api/topics",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/api/topics?q=${encodeURIComponent("طرا")}`, session),
  },
  {
    name: "POST /api/news (review, an existing topic)",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session) =>
      post(`${base}/api/news`, publishForm("بموضوع موجود", { status: "review", topics: "طرابلس" }), session),
  },
  {
    name: "POST /api/news (publish, a new topic)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(`${base}/api/news`, publishForm("بموضوع جديد", { topics: `موضوع جديد ${ctx.run}` }), session),
  },
  {
    name: "GET /dashboard/newsletter",
    kind: "page",
    allowed: EDITORS,
    send: (base, session) => get(`${base}/dashboard/newsletter`, session),
  },
  {
    name: "POST /dashboard/newsletter (import)",
    kind: "page",
    allowed: EDITORS,
    send: (base, session, ctx) =>
      post(
        `${base}/dashboard/newsletter`,
        articleForm({ intent: "import" }, [
          {
            field: "file",
            name: "list.csv",
            bytes: Buffer.from(`email\nimported-${ctx.run}@example.com\n`),
            type: "text/csv",
          },
        ]),
        session,
      ),
  },
  {
    name: "POST /newsletter",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      post(`${base}/newsletter`, { email: `signup-${ctx.run}@example.com`, brief: "on" }, session),
  },
  {
    name: "POST /newsletter/confirm",
    kind: "page",
    allowed: EVERYONE,
    send: async (base, session, ctx) =>
      post(
        `${base}/newsletter/confirm`,
        { t: await newsletterReader(`confirm-${ctx.run}@example.com`, "confirm") },
        session,
      ),
  },
  {
    name: "POST /newsletter/preferences",
    kind: "page",
    allowed: EVERYONE,
    send: async (base, session, ctx) =>
      post(
        `${base}/newsletter/preferences?t=${await newsletterReader(`prefs-${ctx.run}@example.com`, "manage")}`,
        { intent: "save", brief: "on", breaking: "on" },
        session,
      ),
  },
  {
    name: "POST /newsletter/one-click",
    kind: "api",
    allowed: EVERYONE,
    send: async (base, session, ctx) =>
      post(
        `${base}/newsletter/one-click?t=${await newsletterReader(`leaving-${ctx.run}@example.com`, "manage")}`,
        { "List-Unsubscribe": "One-Click" },
        session,
      ),
  },
  {
    name: "GET /dashboard/topics",
    kind: "page",
    allowed: ADMINS,
    send: (base, session) => get(`${base}/dashboard/topics`, session),
  },
  {
    name: "POST /dashboard/topics (rename)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) =>
      post(`${base}/dashboard/topics`, { intent: "rename", id: ctx.topicIds[0], name: `اسم آخر ${ctx.run}` }, session),
  },
  {
    name: "POST /dashboard/topics (create)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) =>
      post(
        `${base}/dashboard/topics`,
        { intent: "create", name: `موضوع من صفحة المواضيع ${ctx.run}`, description: "وصف" },
        session,
      ),
  },
  {
    name: "POST /dashboard/topics (describe)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) =>
      post(
        `${base}/dashboard/topics`,
        { intent: "describe", id: ctx.topicIds[0], description: `وصف ${ctx.run}` },
        session,
      ),
  },
  {
    name: "POST /dashboard/topics (delete)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) => post(`${base}/dashboard/topics`, { intent: "delete", id: ctx.topicIds[0] }, session),
  },
  {
    name: "POST /dashboard/topics (merge)",
    kind: "page",
    allowed: ADMINS,
    send: (base, session, ctx) =>
      post(`${base}/dashboard/topics`, { intent: "merge", id: ctx.topicIds[0], into: ctx.topicIds[1] }, session),
  },
  {
    name: "POST /dashboard/account (author profile)",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) =>
      post(
        `${base}/dashboard/account`,
        articleForm({ intent: "profile", bio: "نبذة", links: "https://example.org/me" }),
        session,
      ),
  },
  // The media library: the newsroom sees it and sets defaults and focal points; editors delete an unused image.
  {
    name: "GET /dashboard/media",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/dashboard/media?q=${encodeURIComponent("مرفأ")}`, session),
  },
  {
    name: "GET /api/media/library",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/api/media/library`, session),
  },
  {
    name: "POST /dashboard/media (focal point)",
    kind: "page",
    allowed: NEWSROOM,
    prepare: libraryImage,
    send: (base, session) =>
      post(`${base}/dashboard/media`, { intent: "focus", url: libraryUrl, x: "0.3", y: "0.7" }, session),
  },
  {
    name: "POST /dashboard/media (details)",
    kind: "page",
    allowed: NEWSROOM,
    prepare: libraryImage,
    send: (base, session) =>
      post(
        `${base}/dashboard/media`,
        { intent: "details", url: libraryUrl, alt: "وصف", caption: "تعليق", credit: "مصدر" },
        session,
      ),
  },
  {
    name: "POST /dashboard/media (delete an unused image)",
    kind: "page",
    allowed: EDITORS,
    prepare: libraryImage,
    send: (base, session) => post(`${base}/dashboard/media`, { intent: "delete", url: libraryUrl }, session),
  },
  {
    name: "POST /api/media/library (pictures into the library)",
    kind: "api",
    allowed: NEWSROOM,
    send: async (base, session) =>
      post(
        `${base}/api/media/library`,
        articleForm({}, [{ field: "images", name: "harbour.png", bytes: await pngBytes(), type: "image/png" }]),
        session,
      ),
  },
  {
    name: "POST /dashboard/media (pictures uploaded by the page's form)",
    kind: "page",
    allowed: NEWSROOM,
    send: async (base, session) =>
      post(
        `${base}/dashboard/media`,
        articleForm({}, [{ field: "images", name: "harbour.png", bytes: await pngBytes(), type: "image/png" }]),
        session,
      ),
  },
  {
    name: "POST /api/media/posters (the owner's draft's video)",
    kind: "api",
    allowed: OWNER_AND_EDITORS,
    prepare: draftWithVideo,
    send: async (base, session) =>
      post(
        `${base}/api/media/posters`,
        articleForm({ articleId: videoDraftId }, [
          { field: "poster", name: "frame.png", bytes: await pngBytes(), type: "image/png" },
        ]),
        session,
      ),
  },
  {
    name: "POST /reset-password",
    kind: "page",
    allowed: EVERYONE,
    send: (base, session) => post(`${base}/reset-password`, { intent: "forgot", email: "user@example.com" }, session),
  },
  {
    name: "GET /api/push/key",
    kind: "api",
    allowed: EVERYONE,
    send: (base, session) => get(`${base}/api/push/key`, session),
  },
  {
    name: "POST /api/push/subscriptions",
    kind: "api",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      pushJson(
        base,
        "/api/push/subscriptions",
        "POST",
        {
          subscription: {
            endpoint: `https://push.example/${ctx.run}`,
            keys: { p256dh: P256_KEY, auth: Buffer.alloc(16, 7).toString("base64url") },
          },
          categories: [],
        },
        session,
      ),
  },
  {
    name: "DELETE /api/push/subscriptions",
    kind: "api",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      pushJson(base, "/api/push/subscriptions", "DELETE", { endpoint: `https://push.example/${ctx.run}` }, session),
  },
  {
    name: "POST /api/push/opened",
    kind: "api",
    allowed: EVERYONE,
    prepare: pushAlert,
    send: (base, session) =>
      pushJson(
        base,
        "/api/push/opened",
        "POST",
        { alertId, open: openToken(server.env.AUTH_SECRET, alertId, 1) },
        session,
      ),
  },
  {
    name: "GET /dashboard/alerts",
    kind: "page",
    allowed: EDITORS,
    send: (base, session) => get(`${base}/dashboard/alerts`, session),
  },
  {
    name: "GET /dashboard/stats",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/dashboard/stats?range=7d`, session),
  },
  {
    name: "GET /dashboard/stats.csv",
    kind: "page",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/dashboard/stats.csv?range=30d&table=top`, session),
  },
  {
    name: "GET /api/stats/live",
    kind: "api",
    allowed: NEWSROOM,
    send: (base, session) => get(`${base}/api/stats/live`, session),
  },
  {
    name: "POST /api/news (sent for review, with an alert)",
    kind: "api",
    allowed: EDITORS,
    send: (base, session) =>
      post(`${base}/api/news`, publishForm("تنبيه من غير المحررين", { status: "review", sendAlert: "on" }), session),
  },
];

function pushJson(base: string, path: string, method: string, body: unknown, session: Session): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    body: JSON.stringify(body),
    redirect: "manual",
    headers: { "content-type": "application/json", ...(session.cookie ? { cookie: session.cookie } : {}) },
  });
}

/** An alert of a story of its own, for the case that counts it opened. */
let alertId = 0;
/** A browser's public key as a subscription carries it: a point on P-256. */
const P256_KEY = createECDH("prime256v1").generateKeys().toString("base64url");
/** A newsletter subscriber made for a case, pending; its link token for `purpose`. */
async function newsletterReader(email: string, purpose: LinkPurpose): Promise<string> {
  const at = new Date().toISOString();
  await db
    .insertInto("newsletter_subscribers")
    .values({ email, brief: 1, status: "pending", created_at: at, requested_at: at, changed_at: at })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  return linkToken(server.site.authSecret, purpose, email);
}

async function pushAlert(): Promise<void> {
  const { id } = await createTestArticle(db, { title: "خبر نُبّه إليه", content: "نص", category: "local", silent: true });
  alertId = Number(
    (
      await db
        .insertInto("push_alerts")
        .values({ article_id: id, kind: "manual", created_at: new Date().toISOString(), payload: "{}" })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id,
  );
}

/** A fresh, unused image row of the media library for a case to change or delete (no files: removing them is best effort). */
let libraryUrl = "";
async function libraryImage(): Promise<void> {
  libraryUrl = `/media/news-images/${(++run).toString(16).padStart(16, "0")}-case.webp`;
  await db
    .insertInto("media")
    .values({
      url: libraryUrl,
      uploaded_by: null,
      created_at: new Date().toISOString(),
      width: 10,
      height: 10,
      focal_x: null,
      focal_y: null,
    })
    .execute();
}

/** The owner's draft with a stored video, made once: the poster cases set its poster. */
let videoDraftId = "";
async function draftWithVideo(): Promise<void> {
  videoDraftId ||= (
    await createTestArticle(db, {
      title: "مسودة بفيديو",
      content: "نص",
      category: "local",
      authorId: ownerId,
      status: "draft",
      video: "/media/news-videos/0000000000000000-clip.mp4",
    })
  ).id;
}

/** Two topics on an article of their own, for the cases that rename or merge one. */
async function twoTopics(caseRun: number): Promise<[string, string]> {
  const tagged = await createTestArticle(db, {
    title: "بموضوعين",
    content: "نص",
    category: "breaking",
    topics: { names: [`أول ${caseRun}`, `ثان ${caseRun}`], mayCreate: true },
  });
  const [first, second] = await topicsOfArticle(db, tagged.id);
  return [first!.id, second!.id];
}

const LIVE_EDITOR = { id: "matrix-editor", name: "محررة", email: "matrix@example.com", role: "editor" } as const;

const NAMES: Record<Role, string> = {
  visitor: "زائر",
  user: "قارئ",
  owner: "كاتبة",
  author: "كاتب",
  editor: "محررة",
  admin: "محرر",
};

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** Every module app/routes.ts names, with the URL pattern it answers ("/news/:id"), nested routes included. */
function routeFiles(entries: RouteEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    return [{ path: path || "/", file: entry.file }, ...routeFiles(entry.children ?? [], path)];
  });
}

function send(method: "PUT" | "DELETE", url: string, body: FormData | undefined, session: Session): Promise<Response> {
  return fetch(url, { method, body, redirect: "manual", headers: session.cookie ? { cookie: session.cookie } : {} });
}

let server: TestServer;
let db: DB;
let ownerId = "";
let readerId = "";
let publishedId = "";
let editorDraftId = "";
let run = 0;

type CaseStories = Pick<
  Context,
  "publishedId" | "draftId" | "reviewId" | "trashedId" | "draftRevision" | "publishedRevision" | "liveUpdateId"
>;
let storiesForRefusals: Promise<CaseStories> | undefined;
let topicsForRefusals: Promise<[string, string]> | undefined;

/** The owner's stories a case acts on: a draft, one in review, one published, one in the trash, and a revision of the first and third. */
async function storiesForACase(): Promise<CaseStories> {
  const disposable = { content: "نص", category: "breaking", authorId: ownerId } as const;
  const draftId = (await createTestArticle(db, { ...disposable, title: "مسودة للحذف أو التعديل", status: "draft" })).id;
  const reviewId = (await createTestArticle(db, { ...disposable, title: "بانتظار المراجعة", status: "review" })).id;
  const publishedId = (await createTestArticle(db, { ...disposable, title: "منشور للتعديل" })).id;
  const publishedRevision = await revisionOf(publishedId, ownerId);
  const draftRevision = await revisionOf(draftId, ownerId);
  const trashedId = (await createTestArticle(db, { ...disposable, title: "في سلة المحذوفات", status: "draft" })).id;
  await trashArticle(db, trashedId);
  const desk = { db, clock: { now: () => new Date() } };
  await openCoverage(desk, LIVE_EDITOR, publishedId);
  const liveUpdateId = await postLiveUpdate(
    desk,
    { id: ownerId, name: "كاتبة", email: "owner@example.com", role: "author" },
    publishedId,
    { body: LIVE_BODY },
  );
  return { publishedId, draftId, reviewId, trashedId, draftRevision, publishedRevision, liveUpdateId };
}

/** Saves the article once through the domain (as `by`), so its previous version becomes a revision; returns that revision's id. */
async function revisionOf(id: string, by: string): Promise<number> {
  const { status } = await db.selectFrom("news").select("status").where("id", "=", id).executeTakeFirstOrThrow();
  const changes: ArticleChanges = {
    title: "نسخة أحدث",
    content: "نص أحدث",
    category: "local",
    status,
    imageUrl: null,
    images: [],
    video: null,
  };
  if (!(await updateArticle(db, id, changes, { by, kind: "save" }))) throw new Error(`no article ${id} to save`);
  const [newest] = await listRevisions(db, id);
  if (!newest) throw new Error(`saving ${id} kept no revision`);
  return newest.id;
}

const sessions = new Map<Role, Session>();

/** Whether the session a cookie carries is still stored and unexpired: a case may have signed it out or changed the password. */
async function stillSignedIn({ cookie }: Session): Promise<boolean> {
  const value = /(?:^|;\s*)[\w.-]*session_token=([^;]+)/.exec(cookie ?? "")?.[1];
  if (!value) return false;
  const signed = decodeURIComponent(value);
  const token = signed.slice(0, signed.lastIndexOf("."));
  const row = await db.selectFrom("session").select("expiresAt").where("token", "=", token).executeTakeFirst();
  return row !== undefined && new Date(row.expiresAt).getTime() > Date.now();
}

/** A role's session: signed in once (a password check each time is most of a case's time), again only once a case has ended it. */
async function sessionFor(role: Role): Promise<Session> {
  if (role === "visitor") return VISITOR;
  const kept = sessions.get(role);
  if (kept && (await stillSignedIn(kept))) return kept;
  const fresh = { cookie: await sessionCookie(db, server.site, `${role}@example.com`) };
  sessions.set(role, fresh);
  return fresh;
}

/** Everything a refused request must leave untouched, the outbox included. */
async function snapshot(): Promise<string> {
  // Not push_alerts: the sender fills an allowed case's alert in the background; a refused alert leaves no story (news).
  const [
    news,
    revisions,
    links,
    stats,
    users,
    events,
    settings,
    placements,
    topics,
    newsTopics,
    topicRedirects,
    media,
    posters,
    subscriptions,
    coverage,
    liveUpdates,
  ] = await Promise.all([
    db.selectFrom("news").selectAll().orderBy("id").execute(),
    db.selectFrom("news_revisions").selectAll().orderBy("id").execute(),
    db.selectFrom("short_links").selectAll().orderBy("short_id").execute(),
    db.selectFrom("site_stats").selectAll().execute(),
    db.selectFrom("user").select(["id", "email", "role", "name", "image", "bio", "links"]).orderBy("id").execute(),
    db.selectFrom("events").selectAll().orderBy("id").execute(),
    db.selectFrom("site_settings").selectAll().execute(),
    db.selectFrom("front_page_placements").selectAll().orderBy("slot").execute(),
    db.selectFrom("topics").selectAll().orderBy("id").execute(),
    db.selectFrom("news_topics").selectAll().orderBy("news_id").orderBy("topic_id").execute(),
    db.selectFrom("topic_redirects").selectAll().orderBy("slug").execute(),
    db.selectFrom("media").selectAll().orderBy("url").execute(),
    db.selectFrom("video_posters").selectAll().orderBy("video_url").orderBy("news_id").execute(),
    db.selectFrom("push_subscriptions").selectAll().orderBy("endpoint").execute(),
    db.selectFrom("live_coverage").selectAll().orderBy("news_id").execute(),
    db.selectFrom("live_updates").selectAll().orderBy("id").execute(),
  ]);
  return JSON.stringify({
    news,
    revisions,
    links,
    stats,
    users,
    events,
    settings,
    placements,
    topics,
    newsTopics,
    topicRedirects,
    media,
    posters,
    subscriptions,
    coverage,
    liveUpdates,
  });
}

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  const site = server.site;
  readerId = await createTestAccount(db, site, { email: "user@example.com", username: "قارئ", role: "user" });
  ownerId = await createTestAccount(db, site, { email: "owner@example.com", username: "كاتبة", role: "author" });
  await createTestAccount(db, site, { email: "author@example.com", username: "كاتب", role: "author" });
  const editorId = await createTestAccount(db, site, {
    email: "editor@example.com",
    username: "محررة",
    role: "editor",
  });
  await createTestAccount(db, site, { email: "admin@example.com", username: "محرر", role: "admin" });
  publishedId = (
    await createTestArticle(db, {
      title: "خبر للاختبار",
      content: "نص",
      category: "local",
      authorId: ownerId,
      topics: { names: ["طرابلس"], mayCreate: true },
    })
  ).id;
  editorDraftId = (
    await createTestArticle(db, {
      title: "مسودة المحررة",
      content: "نص",
      category: "local",
      authorId: editorId,
      status: "draft",
    })
  ).id;
});
afterAll(() => stopServerAndDb({ server, db }));

describe("permission matrix", () => {
  for (const route of ROUTES) {
    for (const role of EVERYONE) {
      const allowed = route.allowed.includes(role);
      it(`${route.name} as ${role}: ${allowed ? "allowed" : "refused"}`, async () => {
        const session = await sessionFor(role);
        await route.prepare?.();
        const caseRun = ++run;
        // An allowed case changes its stories on purpose, so it gets its own; a refused one changes nothing (checked below), so the refusals share theirs.
        const stories = allowed ? await storiesForACase() : await (storiesForRefusals ??= storiesForACase());
        const topicIds = !route.name.startsWith("POST /dashboard/topics")
          ? (["", ""] as [string, string])
          : allowed
            ? await twoTopics(caseRun)
            : await (topicsForRefusals ??= twoTopics(caseRun));
        // Only a refusal is checked against the whole database: an allowed case changes it on purpose.
        const before = allowed ? "" : await snapshot();
        const version = async (id: string) => String(await storedVersion(db, id));
        const base = {
          draft: await version(stories.draftId),
          published: await version(stories.publishedId),
          editorDraft: await version(editorDraftId),
        };
        const ctx = { ...stories, editorDraftId, role, run: caseRun, topicIds, base };
        const response = await route.send(server.url, session, ctx);
        const location = response.headers.get("location") ?? "";
        if (allowed) {
          expect(response.status).toBeLessThan(400);
          expect(location).not.toMatch(/^\/autenction/);
          return;
        }
        if (role === "visitor" && route.kind === "page") {
          expect(response.status).toBe(302);
          expect(location).toMatch(/^\/autenction\?redirectTo=/);
        } else {
          expect(response.status).toBe(role === "visitor" ? 401 : 403);
        }
        expect(await snapshot()).toBe(before);
      });
    }
  }

  it("refuses every mutating route from another site, even for an admin, and changes nothing", async () => {
    const admin = await sessionFor("admin");
    const id = publishedId;
    const trashedId = (
      await createTestArticle(db, { title: "في السلة", content: "نص", category: "local", status: "draft" })
    ).id;
    await trashArticle(db, trashedId);
    const revision = await revisionOf(id, ownerId);
    const before = await snapshot();
    const crossSite = { origin: "https://evil.example" };
    const article = { title: "من موقع آخر", content: "نص", category: "local", status: "published" };
    const edit = { ...article, baseVersion: String(await storedVersion(db, id)) };
    const requests: [string, Record<string, string>][] = [
      [`/api/news/${id}/visit`, {}],
      ["/api/site-visit", {}],
      ["/sign-out", {}],
      ["/autenction", { intent: "signup", username: "x", email: "x@example.com", password: "secret123" }],
      ["/dashboard", article],
      ["/api/news", article],
      [`/api/news/${id}`, edit],
      [`/edit-news/${id}`, edit],
      [`/edit-news/${id}/send-back`, { note: "x" }],
      [`/edit-news/${id}/revisions/${revision}`, { mode: "text", baseVersion: edit.baseVersion }],
      [`/news/${id}/delete`, {}],
      ["/dashboard/trash", { intent: "restore", id: trashedId }],
      ["/dashboard/trash", { intent: "delete", id: trashedId }],
      ["/dashboard/preview", article],
      ["/dashboard/settings", SETTINGS_FORM],
      ["/dashboard/front-page", { intent: "choose", place: "pin", newsId: publishedId, until: inAnHour() }],
      ["/dashboard/front-page", { intent: "remove", slot: "pin:local" }],
      [
        "/api/news/autosave",
        { ...article, id: editorDraftId, baseVersion: String(await storedVersion(db, editorDraftId)) },
      ],
      ["/api/news/autosave", { ...article, submissionId: "cross-site-autosave" }],
      [`/api/news/${id}/presence`, { tab: "tab-cross-site", state: "open" }],
      [`/edit-news/${id}/live`, { intent: "open" }],
      ["/dashboard/users", { intent: "role", userId: readerId, role: "admin" }],
      ["/dashboard/account", { intent: "rename", username: "من موقع آخر" }],
      ["/reset-password", { intent: "forgot", email: "user@example.com" }],
      ["/api/media/images", {}],
      ["/api/media/library", {}],
      ["/dashboard/topics", { intent: "rename", id: "any", name: "من موقع آخر" }],
      ["/dashboard/media", { intent: "delete", url: "/media/news-images/0000000000000000-any.webp" }],
      ["/api/media/posters", { articleId: id }],
      ["/api/push/subscriptions", {}],
      ["/api/push/opened", {}],
    ];
    for (const [path, fields] of requests) {
      const response = await post(`${server.url}${path}`, fields, admin, crossSite);
      expect(response.status, path).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });

  it("has a case for every route module in app/routes.ts that exports an action", async () => {
    const mutating = /^(POST|PUT|PATCH|DELETE) (\S+)/;
    const covered = new Set(ROUTES.map((route) => mutating.exec(route.name)?.[2]).filter(Boolean));
    const exportsAction = /^export\s+(?:async\s+function|function|const|let)\s+action\b|^export\s*\{[^}]*\baction\b/m;
    const withAction: string[] = [];
    for (const { path, file } of routeFiles(routeConfig)) {
      if (exportsAction.test(await readFile(new URL(`../../app/${file}`, import.meta.url), "utf8")))
        withAction.push(path);
    }
    // The detection itself works: these are known to take a POST.
    expect(withAction).toEqual(expect.arrayContaining(["/dashboard", "/dashboard/trash", "/api/news/autosave"]));
    expect(withAction.filter((path) => !covered.has(path))).toEqual([]);
  });
});

describe("npm run user", () => {
  // Asynchronous, so the event loop sees the server close idle keep-alive connections meanwhile.
  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", "scripts/user.ts", ...args], {
        env: { ...process.env, ...server.env },
      });
      return stdout;
    } catch (error) {
      throw new Error(String((error as { stderr?: string }).stderr ?? error));
    }
  };

  it("promotes and demotes by email", async () => {
    expect(await cli("promote", "user@example.com")).toContain("is now an admin");
    expect(
      (await db.selectFrom("user").select("role").where("email", "=", "user@example.com").executeTakeFirstOrThrow())
        .role,
    ).toBe("admin");
    expect(await cli("demote", "user@example.com")).toContain("is now a user");
    expect(
      (await db.selectFrom("user").select("role").where("email", "=", "user@example.com").executeTakeFirstOrThrow())
        .role,
    ).toBe("user");
  });

  it("creates an admin with a printed password that signs in", async () => {
    const output = await cli("create-admin", "chief@example.com", "رئيس", "التحرير");
    const password = /password: (\S+)/.exec(output)?.[1];
    expect(password).toBeTruthy();
    const row = await db
      .selectFrom("user")
      .select(["role", "name"])
      .where("email", "=", "chief@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "admin", name: "رئيس التحرير" });
    const response = await post(`${server.url}/autenction`, {
      intent: "signin",
      email: "chief@example.com",
      password: password!,
    });
    expect(response.status).toBe(302);
  });

  it("sets any of the four roles by email", async () => {
    const roleOf = async () =>
      (await db.selectFrom("user").select("role").where("email", "=", "author@example.com").executeTakeFirstOrThrow())
        .role;
    expect(await cli("set-role", "author@example.com", "editor")).toContain("author@example.com is now an editor");
    expect(await roleOf()).toBe("editor");
    expect(await cli("set-role", "author@example.com", "author")).toContain("author@example.com is now an author");
    expect(await roleOf()).toBe("author");
    await expect(cli("set-role", "author@example.com", "owner")).rejects.toThrow(/Not a role: owner/);
    await expect(cli("set-role", "ghost@example.com", "editor")).rejects.toThrow(
      /No account has the email ghost@example.com/,
    );
    expect(await roleOf()).toBe("author");
    // Each run starts a Node process: four of them on a shared machine.
  }, 90_000);

  it("says what is wrong for an unknown email or a bad command", async () => {
    await expect(cli("promote", "ghost@example.com")).rejects.toThrow(/No account has the email ghost@example.com/);
    await expect(cli("promote", "not-an-email")).rejects.toThrow(/Not a valid email address/);
    await expect(cli("explode")).rejects.toThrow(/Usage/);
  });
});
