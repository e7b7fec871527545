/**
 * Deterministic hostile requests for tests/integration/hostile-input.test.ts: every route of
 * app/routes.ts and every form field, fed strings an attacker or a broken client would send. Every
 * case must be refused or answered without storing anything (the article forms always carry one
 * invalid part), so the suite can check that nothing stored changed.
 */
import { articleForm, publishForm } from "../../harness/articles";
import { exeBytes } from "../../harness/fixtures";
import { seededRandom } from "../../harness/seeded-random";

export type Who = "admin" | "visitor";
export type HostileCase = {
  name: string;
  who: Who;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string | FormData;
  /** Event streams never end: only the status and first bytes are read. */
  stream?: boolean;
  /** Sent through node:http: fetch refuses to send TRACE at all. */
  raw?: boolean;
};

const XSS = [
  `<script>alert(1)</script>`,
  `"><img src=x onerror=alert(1)>`,
  `javascript:alert(1)`,
  `<svg/onload=alert(1)>`,
  `'';!--"<XSS>=&{()}`,
  `<a href="javascript:alert(1)">x</a>`,
  `{{constructor.constructor('alert(1)')()}}`,
];
const TRAVERSAL = [
  `../../etc/passwd`,
  `..%2F..%2Fetc%2Fpasswd`,
  `....//....//etc/passwd`,
  `%2e%2e/%2e%2e/data/akhbar.db`,
  `..\\..\\windows\\win.ini`,
  `/media/../auth-secret`,
];
const UNICODE = [
  "\u202Eكتب\u202C",
  "\u0000",
  "a\u0000b",
  "\uFEFF٣",
  "\uD800",
  "\uDFFF\uD800",
  "👩🏽‍💻".repeat(50),
  "ع".repeat(10_000),
  "x".repeat(70_000),
  "\u200F\u200E\u061C",
  "ﷺ".repeat(300),
];
const FTS = [
  `"`,
  `*`,
  `NEAR(`,
  `a OR`,
  `OR`,
  `-`,
  `"unterminated`,
  `title:*`,
  `NEAR(a b, -1)`,
  `^`,
  `(((`,
  `AND NOT`,
  `"" OR ""`,
  `col:"x"*`,
];
const NUMBERS = [
  "-1",
  "0",
  "1e99",
  "NaN",
  "\uFEFF٣",
  "٣",
  "99999999999999999999",
  "1.5",
  "0x10",
  "Infinity",
  "",
  "+1",
  " 2",
  "2abc",
  "-0",
];

export const STRINGS = [...XSS, ...TRAVERSAL, ...UNICODE, ...FTS, ...NUMBERS];

/** Percent-encodes for a path segment or query, keeping lone surrogates as raw UTF-8 escapes. */
function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\uD800-\uDFFF]/g, "%ED%A0%80").replace(/[^A-Za-z0-9%]/g, (c) => encodeURIComponent(c));
  }
}

const PAGE_ROUTES = [
  "/",
  "/local",
  "/international",
  "/sports",
  "/educatonal",
  "/educational",
  "/miscellaneous",
  "/advertisement",
  "/breaking",
  "/who",
  "/contact",
  "/privacy",
  "/development",
  "/search",
  "/autenction",
  "/dashboard",
  "/sitemap.xml",
  "/news-sitemap.xml",
  "/robots.txt",
  "/rss.xml",
  "/local/rss.xml",
  "/breaking/rss.xml",
  "/api/latest",
  "/api/breaking",
];
const CATEGORIES = ["local", "international", "sports", "educational", "miscellaneous", "advertisement", "breaking"];
const CONTENT_TYPES = [
  "application/json",
  "text/plain",
  "application/xml",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/x-www-form-urlencoded; charset=utf-16",
  "image/png",
  "",
];

/** The head of a PNG whose header claims `width` × `height` pixels: an image too large to decode. */
function pngClaiming(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(8 + 25 + 12);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  bytes.set([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], 33);
  return bytes;
}

/** Files whose bytes are not what their name and type say. */
function lyingFiles(): { name: string; bytes: Uint8Array; type: string }[] {
  const text = (s: string) => new TextEncoder().encode(s);
  return [
    { name: "photo.jpg", bytes: new Uint8Array(exeBytes()), type: "image/jpeg" },
    { name: "photo.png", bytes: text("<html><script>alert(1)</script></html>"), type: "image/png" },
    {
      name: "vector.svg",
      bytes: text(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`),
      type: "image/svg+xml",
    },
    { name: "empty.png", bytes: new Uint8Array(0), type: "image/png" },
    {
      name: "truncated.png",
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      type: "image/png",
    },
    { name: "../../../evil.png", bytes: new Uint8Array(exeBytes()), type: "image/png" },
    { name: "clip.mp4", bytes: text("#!/bin/sh\nrm -rf /"), type: "video/mp4" },
  ];
}

/** Article bodies the allow-list refuses (lib/rich-text/document.ts): never a document that would be stored. */
function hostileBodies(): string[] {
  const text = (value: string, marks?: unknown[]) => ({ type: "text", text: value, ...(marks ? { marks } : {}) });
  const doc = (...content: unknown[]) => JSON.stringify({ type: "doc", content });
  const paragraph = (...content: unknown[]) => ({ type: "paragraph", content });
  const link = (href: string) => doc(paragraph(text("رابط", [{ type: "link", attrs: { href } }])));
  const figure = (src: string) => doc({ type: "figure", attrs: { src, alt: "", caption: "", credit: "" } });
  let nested: unknown = paragraph(text("عميق"));
  for (let depth = 0; depth < 60; depth++)
    nested = { type: "bulletList", content: [{ type: "listItem", content: [paragraph(text("x")), nested] }] };
  return [
    "<script>alert(1)</script>",
    "<p onclick=alert(1)>نص</p>",
    "{not json",
    "null",
    "[]",
    '"doc"',
    JSON.stringify({ type: "doc" }),
    JSON.stringify({ type: "doc", content: [], __proto__: { polluted: true } }),
    doc({ type: "html", content: "<script>alert(1)</script>" }),
    doc({ type: "script", text: "alert(1)" }),
    doc({ type: "style", text: "body{display:none}" }),
    doc(paragraph({ type: "text", text: "" })),
    doc(paragraph(text("x", [{ type: "bold" }, { type: "italic" }, { type: "bold" }, { type: "italic" }]))),
    doc(paragraph(text("x", [{ type: "textStyle", attrs: { style: "color:red" } }]))),
    doc({ type: "heading", attrs: { level: 1 }, content: [text("h1")] }),
    link("javascript:alert(1)"),
    link("JaVaScRiPt:alert(1)"),
    link("data:text/html,<script>alert(1)</script>"),
    link("vbscript:msgbox(1)"),
    link("//evil.example/x"),
    figure("https://evil.example/tracker.png"),
    figure("/media/news-images/../../auth-secret"),
    figure("/media/news-videos/clip.mp4"),
    figure("javascript:alert(1)"),
    doc({ type: "embed", attrs: { provider: "youtube", id: 'x" onload="alert(1)' } }),
    doc({ type: "embed", attrs: { provider: "evil", id: "1" } }),
    doc({ type: "embed", attrs: { provider: "x", id: "javascript:alert(1)" } }),
    doc(nested),
    doc(...Array.from({ length: 3_000 }, () => paragraph(text("فقرة")))),
    doc(paragraph(text("ع".repeat(250_000)))),
  ];
}

/** At least `minimum` cases, the same ones for the same seed. */
export function hostileCases(
  seed: number,
  ids: { articleId: string; reviewId: string },
  minimum = 1000,
): HostileCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);
  const who = (): Who => (random() < 0.5 ? "admin" : "visitor");

  // Every page and API with hostile query strings, as both audiences.
  for (const path of PAGE_ROUTES) {
    for (const value of [pick(STRINGS), pick(NUMBERS), pick(FTS)]) {
      add({
        name: `GET ${path}?page&q`,
        who: who(),
        method: "GET",
        path: `${path}?page=${enc(value)}&query=${enc(value)}&q=${enc(value)}&category=${enc(value)}&redirectTo=${enc(value)}&mode=${enc(value)}`,
      });
    }
  }
  for (const value of STRINGS) {
    add({
      name: "GET /search",
      who: who(),
      method: "GET",
      path: `/search?query=${enc(value)}&page=${enc(pick(NUMBERS))}`,
    });
    add({ name: "GET /news/:id", who: who(), method: "GET", path: `/news/${enc(value)}` });
    add({ name: "GET /edit-news/:id", who: "admin", method: "GET", path: `/edit-news/${enc(value)}` });
    add({ name: "GET /:shortId", who: "visitor", method: "GET", path: `/${enc(value)}` });
    add({ name: "GET /news/:id/delete", who: who(), method: "GET", path: `/news/${enc(value)}/delete` });
    add({ name: "GET /media/…", who: "visitor", method: "GET", path: `/media/${enc(value)}` });
    add({
      name: "GET /author/…",
      who: "visitor",
      method: "GET",
      path: `/author/${enc(value)}?page=${enc(pick(STRINGS))}`,
    });
    add({
      name: "GET raw path",
      who: "visitor",
      method: "GET",
      path: `/${value.replace(/[^\x21-\x7e]/g, (c) => enc(c))}`,
    });
  }
  for (const value of NUMBERS) {
    for (const category of CATEGORIES)
      add({
        name: "GET /api/latest category page",
        who: who(),
        method: "GET",
        path: `/api/latest?category=${category}&page=${enc(value)}`,
      });
    add({ name: "GET /local?page", who: who(), method: "GET", path: `/local?page=${enc(value)}` });
    add({ name: "GET /sitemap.xml?page", who: "visitor", method: "GET", path: `/sitemap.xml?page=${enc(value)}` });
    add({
      name: "GET /edit-news/:id/compare",
      who: who(),
      method: "GET",
      path: `/edit-news/${ids.articleId}/compare?from=${enc(value)}&to=${enc(pick(NUMBERS))}`,
    });
    add({
      name: "GET /edit-news/:hostile/compare",
      who: "admin",
      method: "GET",
      path: `/edit-news/${enc(value)}/compare?from=current&to=current`,
    });
    add({
      name: "GET /dashboard/calendar?month",
      who: who(),
      method: "GET",
      path: `/dashboard/calendar?month=${enc(value)}`,
    });
    add({
      name: "POST /edit-news/:id/revisions/:hostile restore",
      who: who(),
      method: "POST",
      path: `/edit-news/${ids.articleId}/revisions/${enc(pick(NUMBERS))}`,
      body: new URLSearchParams({ mode: value, removal: pick(STRINGS), confirmRemoval: pick(STRINGS) }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    add({
      name: "GET /dashboard?page",
      who: "admin",
      method: "GET",
      path: `/dashboard?page=${enc(value)}&saved=${enc(pick(STRINGS))}&status=${enc(pick(STRINGS))}&category=${enc(pick(STRINGS))}&author=${enc(pick(STRINGS))}&q=${enc(pick(STRINGS))}`,
    });
  }
  for (const value of [...NUMBERS, ...XSS.slice(0, 3), "\r\nX-Evil: 1"]) {
    const safe = value.replace(/[\r\n\u0000]/g, " ").replace(/[^\x20-\x7e]/g, "?");
    add({
      name: "GET /api/breaking/stream Last-Event-ID",
      who: who(),
      method: "GET",
      path: "/api/breaking/stream",
      headers: { "last-event-id": safe },
      stream: true,
    });
    add({
      name: "GET /api/breaking/stream ?lastEventId",
      who: "visitor",
      method: "GET",
      path: `/api/breaking/stream?lastEventId=${enc(value)}`,
      stream: true,
    });
    add({
      name: "POST /api/news/:id/presence hostile tab and state",
      who: who(),
      method: "POST",
      path: `/api/news/${enc(value)}/presence`,
      body: new URLSearchParams({ tab: value, state: pick([value, "open", "leave"]) }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    add({
      name: "GET /api/news/:hostile/presence",
      who: who(),
      method: "GET",
      path: `/api/news/${enc(value)}/presence`,
      stream: true,
    });
  }

  // Sign-in and sign-up: hostile fields, forged roles, wrong content types.
  for (let i = 0; i < 160; i++) {
    const intent = pick(["signin", "signup", "admin", ""]);
    const fields: Record<string, string> = {
      intent,
      username: pick(STRINGS),
      email: pick([...STRINGS, "a@b", "x@example.com"]),
      password: pick(STRINGS),
      redirectTo: pick([...TRAVERSAL, "//evil.example", "https://evil.example", "javascript:alert(1)"]),
    };
    // A valid sign-up would store an account: the forged role rides on one that is refused.
    if (intent === "signup")
      Object.assign(fields, { role: "admin", isAdmin: "true", "user[role]": "admin", password: "123" });
    add({
      name: `POST /autenction ${intent}`,
      who: "visitor",
      method: "POST",
      path: "/autenction",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  }
  for (const type of CONTENT_TYPES) {
    for (const body of [
      '{"intent":"signup","role":"admin"}',
      "\u0000\u0001\u0002",
      "",
      '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsignup\r\n',
    ]) {
      add({
        name: `POST /autenction as ${type || "no type"}`,
        who: "visitor",
        method: "POST",
        path: "/autenction",
        body,
        headers: type ? { "content-type": type } : {},
      });
      // A urlencoded body is a real form: the admin's delete would be honoured, so it aims at no article.
      const deleted = type.startsWith("application/x-www-form-urlencoded") ? "no-such-id" : ids.articleId;
      add({
        name: `POST /news/:id/delete as ${type || "no type"}`,
        who: "admin",
        method: "POST",
        path: `/news/${deleted}/delete`,
        body,
        headers: type ? { "content-type": type } : {},
      });
      add({
        name: `POST /api/news as ${type || "no type"}`,
        who: "admin",
        method: "POST",
        path: "/api/news",
        body,
        headers: type ? { "content-type": type } : {},
      });
      add({
        name: `PUT /api/news/:id as ${type || "no type"}`,
        who: "admin",
        method: "PUT",
        path: `/api/news/${ids.articleId}`,
        body,
        headers: type ? { "content-type": type } : {},
      });
      add({
        name: `POST /dashboard as ${type || "no type"}`,
        who: "admin",
        method: "POST",
        path: "/dashboard",
        body,
        headers: type ? { "content-type": type } : {},
      });
    }
  }

  // Article forms (dashboard, edit page, JSON API): one invalid part each, so nothing is stored.
  const articleTargets = [
    { method: "POST", path: "/api/news" },
    { method: "PUT", path: `/api/news/${ids.articleId}` },
    { method: "POST", path: "/dashboard" },
    { method: "POST", path: `/edit-news/${ids.articleId}` },
  ];
  for (let i = 0; i < 200; i++) {
    const target = pick(articleTargets);
    const invalid = pick([
      "category",
      "status",
      "videoUrl",
      "imageUrl",
      "title",
      "content",
      "file",
      "imageOrder",
      "imageDetail",
      "story",
      "shareImage",
      "baseVersion",
    ] as const);
    const fields: Record<string, string> = {
      title: pick(STRINGS),
      content: pick(STRINGS),
      category: pick(CATEGORIES),
      status: pick(["published", "draft"]),
      submissionId: pick(STRINGS),
    };
    if (invalid === "category") fields.category = pick(STRINGS);
    if (invalid === "status") fields.status = pick([...STRINGS, "admin", "scheduled"]);
    if (invalid === "videoUrl")
      fields.videoUrl = pick([...XSS, ...TRAVERSAL, "javascript:alert(1)", "data:text/html,<script>"]);
    if (invalid === "imageUrl") fields.imageUrl = pick([...XSS, ...TRAVERSAL, "file:///etc/passwd"]);
    if (invalid === "title") fields.title = pick(["", " ", "\u0000", "x".repeat(70_000), "\u200F"]);
    if (invalid === "content") fields.content = pick(["", "   ", "\u200E"]);
    // The images' order and details (decision 025): only the article's own images, each detail at most 300 characters.
    if (invalid === "imageOrder")
      Object.assign(fields, {
        imageOrder: pick([...XSS, ...TRAVERSAL, "https://evil.example/x.png", "/media/news-images/../../auth-secret"]),
        imageAlt: pick(STRINGS),
        imageCaption: "",
        imageCredit: "",
      });
    if (invalid === "imageDetail")
      fields[pick(["imageAlt", "imageCaption", "imageCredit"])] = pick(["x".repeat(301), "ت".repeat(5_000), ...XSS]);
    // The story's fields (decision 033): past their limits, or a share picture that is no picture.
    if (invalid === "story")
      fields[pick(["standfirst", "slug", "shareTitle", "shareDescription"])] = pick([
        "x".repeat(301),
        "ت".repeat(5_000),
        "ب".repeat(81).split("").join(" "),
      ]);
    // The version an edit is based on (decision 034): a whole number from 1, nothing else.
    if (invalid === "baseVersion") fields.baseVersion = pick([...NUMBERS.filter((n) => n !== ""), ...XSS]);
    const files =
      invalid === "file"
        ? [{ field: pick(["images", "video"]), ...pick(lyingFiles()) }]
        : invalid === "shareImage"
          ? [{ field: "shareImage", ...pick(lyingFiles()) }]
          : [];
    if (random() < 0.2) fields.removeImages = pick(TRAVERSAL);
    add({
      name: `${target.method} ${target.path} bad ${invalid}`,
      who: "admin",
      method: target.method,
      path: target.path,
      body: articleForm(fields, files),
    });
    add({
      name: `${target.method} ${target.path} signed out`,
      who: "visitor",
      method: target.method,
      path: target.path,
      body: articleForm(fields, files),
    });
  }
  for (const file of lyingFiles()) {
    for (const field of ["images", "video", "title", "avatar"]) {
      add({
        name: `POST /api/news lying ${file.name} as ${field}`,
        who: "admin",
        method: "POST",
        path: "/api/news",
        body: publishForm("عنوان", {}, [{ field, ...file }]),
      });
    }
  }

  // The article body: documents the allow-list refuses, through the API, both forms and autosave.
  const bodyTargets = [...articleTargets, { method: "POST", path: "/api/news/autosave" }];
  for (const body of hostileBodies()) {
    for (const target of bodyTargets) {
      const fields: Record<string, string> = {
        title: "عنوان",
        body,
        category: pick(CATEGORIES),
        status: pick(["published", "draft"]),
        submissionId: `hostile-body-${cases.length}`,
      };
      add({
        name: `${target.method} ${target.path} hostile body`,
        who: "admin",
        method: target.method,
        path: target.path,
        body: articleForm(fields, []),
      });
    }
    add({
      name: "POST /api/news/autosave hostile body into an article",
      who: "admin",
      method: "POST",
      path: "/api/news/autosave",
      body: articleForm({ id: ids.articleId, title: "عنوان", body, category: "local" }, []),
    });
    add({
      name: "POST /dashboard/preview hostile body",
      who: "admin",
      method: "POST",
      path: "/dashboard/preview",
      body: articleForm({ title: "عنوان", body, category: "local" }, []),
    });
  }
  // The editor's image upload: only a real image, only for the newsroom.
  for (const file of lyingFiles()) {
    for (const field of ["image", "images", "file"]) {
      add({
        name: `POST /api/media/images lying ${file.name} as ${field}`,
        who: "admin",
        method: "POST",
        path: "/api/media/images",
        body: publishForm("عنوان", {}, [{ field, ...file }]),
      });
    }
  }
  add({
    name: "POST /api/media/images signed out",
    who: "visitor",
    method: "POST",
    path: "/api/media/images",
    body: articleForm({}, [{ field: "image", ...lyingFiles()[0]! }]),
  });

  // Ids from the path on every write: missing, hostile, cross-site.
  for (const value of STRINGS) {
    // Past 16 KB of head Node itself answers 431 and closes before any body: ids with a body stay shorter.
    if (enc(value).length < 8 * 1024)
      add({
        name: "PUT /api/news/:hostile",
        who: "admin",
        method: "PUT",
        path: `/api/news/${enc(value)}`,
        body: publishForm("عنوان"),
      });
    add({ name: "DELETE /api/news/:hostile", who: "admin", method: "DELETE", path: `/api/news/${enc(value)}` });
    add({
      name: "POST /news/:hostile/delete",
      who: "admin",
      method: "POST",
      path: `/news/${enc(value)}/delete`,
      body: new URLSearchParams({ redirectTo: pick(TRAVERSAL) }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    add({
      name: "POST /api/news/:hostile/visit",
      who: who(),
      method: "POST",
      path: `/api/news/${enc(value)}/visit`,
      body: pick(STRINGS),
    });
    add({
      name: "DELETE /api/news/:id signed out",
      who: "visitor",
      method: "DELETE",
      path: `/api/news/${ids.articleId}`,
    });
    add({
      name: "POST /api/site-visit cross-site",
      who: who(),
      method: "POST",
      path: "/api/site-visit",
      headers: { origin: pick(["https://evil.example", "null", value.replace(/[^\x20-\x7e]/g, "")]) },
    });
    add({
      name: "POST /sign-out cross-site",
      who: "admin",
      method: "POST",
      path: "/sign-out",
      headers: { origin: "https://evil.example" },
    });
  }

  // The front page: hostile ids, places, times and slots; every id names no article, so nothing is chosen.
  const urlencodedForm = { "content-type": "application/x-www-form-urlencoded" };
  for (const value of STRINGS) {
    const choose = {
      intent: "choose",
      place: pick(["1", "4", "5", "pin", "-1", value]),
      newsId: value,
      until: pick([value, "2020-01-01T00:00", "99999-12-31T23:59", "2026-13-45T25:61"]),
    };
    add({
      name: "POST /dashboard/front-page hostile choice",
      who: who(),
      method: "POST",
      path: "/dashboard/front-page",
      body: new URLSearchParams(choose).toString(),
      headers: urlencodedForm,
    });
    add({
      name: "POST /dashboard/front-page hostile removal",
      who: who(),
      method: "POST",
      path: "/dashboard/front-page",
      body: new URLSearchParams({ intent: pick(["remove", value]), slot: value }).toString(),
      headers: urlencodedForm,
    });
    if (enc(value).length < 8 * 1024)
      add({
        name: "GET /dashboard/front-page?q=hostile",
        who: "admin",
        method: "GET",
        path: `/dashboard/front-page?q=${enc(value)}`,
      });
  }

  cases.push(...settingsCases(seed), ...topicCases(seed, ids), ...mediaLibraryCases(seed), ...nulCases(ids));

  // Huge and malformed bodies; methods nobody uses.
  for (const size of [1, 64 * 1024, 1024 * 1024, 3 * 1024 * 1024]) {
    const filler = Buffer.alloc(size, 0x7b);
    for (const target of [
      "/autenction",
      "/api/news",
      `/news/${ids.articleId}/delete`,
      "/dashboard",
      "/api/news/no-such-id/visit",
      "/search",
    ]) {
      const type = pick(CONTENT_TYPES) || "application/octet-stream";
      // A small urlencoded body is a real form (one field "{"): the admin's delete would be honoured, so it aims at no article.
      const path =
        target.endsWith("/delete") && type.startsWith("application/x-www-form-urlencoded")
          ? "/news/no-such-id/delete"
          : target;
      add({
        name: `POST ${path} ${size} bytes of { as ${type}`,
        who: "admin",
        method: "POST",
        path,
        body: filler,
        headers: { "content-type": type },
      });
    }
  }
  for (const method of ["TRACE", "PROPFIND", "PATCH", "OPTIONS", "DELETE", "PUT"]) {
    for (const path of ["/", "/api/news", `/news/${ids.articleId}`, "/autenction", "/api/breaking", "/media/x"])
      add({ name: `${method} ${path}`, who: who(), method, path, raw: true });
  }

  // Accounts: the users page, the account page and the reset page. Ids never name a real
  // account, names are ones the schema refuses, and the server has no mail, so nothing is stored.
  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const refusedNames = ["", " ", "\u200F\u200E\u061C", "x".repeat(70_000), "\u0000", "\u202E\u202C"];
  for (const value of STRINGS) {
    add({ name: "GET /dashboard/users?q", who: who(), method: "GET", path: `/dashboard/users?q=${enc(value)}` });
    add({
      name: "GET /reset-password?token",
      who: "visitor",
      method: "GET",
      path: `/reset-password?token=${enc(value)}`,
    });
    const intent = pick(["role", "disable", "enable", "delete", "one-time-password", "reset-link", "invite", value]);
    add({
      name: `POST /dashboard/users ${intent.slice(0, 20)}`,
      who: who(),
      method: "POST",
      path: "/dashboard/users",
      ...form({
        intent,
        userId: value,
        role: pick([...STRINGS, "admin", "user"]),
        username: pick(STRINGS),
        email: pick(STRINGS),
      }),
    });
    add({
      name: "POST /dashboard/account rename",
      who: who(),
      method: "POST",
      path: "/dashboard/account",
      ...form({ intent: "rename", username: pick(refusedNames) }),
    });
    add({
      name: "POST /dashboard/account password",
      who: who(),
      method: "POST",
      path: "/dashboard/account",
      ...form({ intent: "password", currentPassword: value, newPassword: pick(STRINGS) }),
    });
    add({
      name: "POST /dashboard/account intent",
      who: who(),
      method: "POST",
      path: "/dashboard/account",
      ...form({ intent: value }),
    });
    add({
      name: "POST /reset-password",
      who: "visitor",
      method: "POST",
      path: "/reset-password",
      ...form({
        intent: pick(["forgot", "reset", value]),
        token: value,
        newPassword: pick(STRINGS),
        email: pick(STRINGS),
      }),
    });
  }
  // The author page's form: links that are no web address, overlong bios, files that are no picture.
  for (const value of [
    ...XSS,
    "javascript:alert(1)",
    "data:text/html,<script>",
    "ftp://example.org",
    `https://e.org/${"a".repeat(600)}`,
  ]) {
    const links = pick([value, Array.from({ length: 6 }, (_, i) => `https://e.org/${i}`).join("\n")]);
    add({
      name: "POST /dashboard/account profile links",
      who: who(),
      method: "POST",
      path: "/dashboard/account",
      body: articleForm({ intent: "profile", bio: pick(["نبذة", "ب".repeat(501)]), links }),
    });
  }
  for (const file of lyingFiles()) {
    add({
      name: `POST /dashboard/account profile lying ${file.name}`,
      who: who(),
      method: "POST",
      path: "/dashboard/account",
      body: articleForm({ intent: "profile", bio: "ب".repeat(501) }, [{ field: "photo", ...file }]),
    });
  }
  for (const type of CONTENT_TYPES) {
    for (const path of ["/dashboard/users", "/dashboard/account", "/reset-password"]) {
      add({
        name: `POST ${path} as ${type || "no type"}`,
        who: "admin",
        method: "POST",
        path,
        body: '{"intent":"role","role":"admin"}',
        headers: type ? { "content-type": type } : {},
      });
    }
  }

  while (cases.length < minimum)
    add({
      name: "GET /search fill",
      who: who(),
      method: "GET",
      path: `/search?query=${enc(pick(STRINGS) + pick(FTS))}&page=${enc(pick(NUMBERS))}`,
    });
  return cases;
}

/**
 * A request whose only fault is a NUL (U+0000) in `field`: it must be a 400 naming that field, with
 * nothing stored. `unseen`: the page has no form to show the message beside (mail is off), only the 400.
 */
export type NulCase = HostileCase & { field: string; unseen?: true };

/**
 * A NUL in every text field a client can send, one field at a time, in forms that are otherwise valid
 * (so the code before the rule stored them, or failed on PostgreSQL): articles, the rich-text body,
 * autosave, preview, review notes, the trash, accounts, resets and the site's settings.
 */
export function nulCases(ids: { articleId: string; reviewId: string }): NulCase[] {
  const nul = (text: string) => `${text}\u0000${text}`;
  const docWith = (text: string) =>
    JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
  const cases: NulCase[] = [];
  const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    headers: urlencoded,
  });
  const add = (c: Omit<NulCase, "name">) => cases.push({ name: `NUL in ${c.field} ${c.method} ${c.path}`, ...c });

  const article = { title: "عنوان", content: "نص", category: "local", status: "draft" };
  const articleFaults: Record<string, Record<string, string>> = {
    title: { title: nul("عنوان") },
    content: { content: nul("نص") },
    body: { body: docWith(nul("نص")) },
    byline: { byline: nul("كاتب") },
    videoUrl: { videoUrl: `https://www.youtube.com/watch?v=${nul("a")}` },
    imageUrl: { imageUrl: `https://example.com/${nul("a")}.png` },
    removeImages: { removeImages: nul("/media/news-images/a.webp") },
    imageDetails: { imageOrder: "/media/news-images/a.webp", imageAlt: nul("وصف"), imageCaption: "", imageCredit: "" },
    submissionId: { submissionId: nul("abcdefgh") },
    publishAt: { status: "scheduled", publishAt: nul("2030-01-01T10:00") },
    topics: { topics: nul("طرابلس") },
  };
  const articleTargets = [
    { method: "POST", path: "/api/news" },
    { method: "PUT", path: `/api/news/${ids.articleId}` },
    { method: "POST", path: "/dashboard" },
    { method: "POST", path: `/edit-news/${ids.articleId}` },
  ];
  for (const target of articleTargets) {
    for (const [field, fault] of Object.entries(articleFaults))
      add({ ...target, field, who: "admin", body: articleForm({ ...article, ...fault }) });
  }

  const autosave = { title: "عنوان", content: "نص", category: "local", submissionId: "nul-autosave-1" };
  const autosaveFaults: Record<string, Record<string, string>> = {
    title: { title: nul("عنوان") },
    content: { content: nul("نص") },
    body: { body: docWith(nul("نص")) },
    submissionId: { submissionId: nul("abcdefgh") },
    id: { id: nul("x") },
    topics: { topics: nul("طرابلس") },
  };
  for (const [field, fault] of Object.entries(autosaveFaults))
    add({
      field,
      who: "admin",
      method: "POST",
      path: "/api/news/autosave",
      body: articleForm({ ...autosave, ...fault }),
    });
  for (const field of ["id", "title", "content", "videoUrl", "imageUrl", "topics"]) {
    const fault = field === "id" ? nul("x") : field.endsWith("Url") ? `https://example.com/${nul("a")}` : nul("نص");
    add({
      field,
      who: "admin",
      method: "POST",
      path: "/dashboard/preview",
      body: articleForm({ title: "عنوان", content: "نص", category: "local", [field]: fault }),
    });
  }
  add({
    field: "note",
    who: "admin",
    method: "POST",
    path: `/edit-news/${ids.reviewId}/send-back`,
    ...form({ note: nul("ملاحظة") }),
  });
  add({
    field: "tab",
    who: "admin",
    method: "POST",
    path: `/api/news/${ids.articleId}/presence`,
    ...form({ tab: nul("tab-abcdefgh"), state: "open" }),
  });
  for (const target of articleTargets.filter((t) => t.method === "PUT" || t.path.startsWith("/edit-news")))
    add({ ...target, field: "baseVersion", who: "admin", body: articleForm({ ...article, baseVersion: nul("1") }) });
  for (const intent of ["restore", "delete"])
    add({ field: "id", who: "admin", method: "POST", path: "/dashboard/trash", ...form({ intent, id: nul("x") }) });
  // The front page: a published article, a valid place and time, but one field with a NUL.
  const choice = { intent: "choose", place: "pin", newsId: ids.articleId, until: "2026-12-01T10:00" };
  for (const [field, value] of [
    ["newsId", nul(ids.articleId)],
    ["until", nul("2026-12-01T10:00")],
  ] as const) {
    add({ field, who: "admin", method: "POST", path: "/dashboard/front-page", ...form({ ...choice, [field]: value }) });
  }
  add({
    field: "slot",
    who: "admin",
    method: "POST",
    path: "/dashboard/front-page",
    ...form({ intent: "remove", slot: nul("slide:1") }),
  });

  // Accounts: the valid fields name an address no account has and a password long enough.
  const email = "nul-case@example.com";
  add({
    field: "email",
    who: "visitor",
    method: "POST",
    path: "/autenction",
    ...form({ intent: "signin", email: nul("a") + "@example.com", password: "secret123" }),
  });
  add({
    field: "password",
    who: "visitor",
    method: "POST",
    path: "/autenction",
    ...form({ intent: "signin", email, password: nul("secret123") }),
  });
  for (const [field, value] of [
    ["username", nul("اسم")],
    ["email", `${nul("a")}@example.com`],
    ["password", nul("secret123")],
  ] as const) {
    add({
      field,
      who: "visitor",
      method: "POST",
      path: "/autenction",
      ...form({ intent: "signup", username: "اسم", email, password: "secret123", [field]: value }),
    });
  }
  add({
    field: "username",
    who: "admin",
    method: "POST",
    path: "/dashboard/account",
    ...form({ intent: "rename", username: nul("اسم") }),
  });
  add({
    field: "currentPassword",
    who: "admin",
    method: "POST",
    path: "/dashboard/account",
    ...form({ intent: "password", currentPassword: nul("secret123"), newPassword: "secret456" }),
  });
  add({
    field: "newPassword",
    who: "admin",
    method: "POST",
    path: "/dashboard/account",
    ...form({ intent: "password", currentPassword: "secret123", newPassword: nul("secret456") }),
  });
  for (const [field, value] of [
    ["username", nul("اسم")],
    ["email", `${nul("a")}@example.com`],
  ] as const) {
    add({
      field,
      who: "admin",
      method: "POST",
      path: "/dashboard/users",
      ...form({ intent: "invite", username: "اسم", email, role: "author", [field]: value }),
    });
  }
  add({
    field: "email",
    who: "visitor",
    method: "POST",
    path: "/reset-password",
    ...form({ intent: "forgot", email: `${nul("a")}@example.com` }),
    unseen: true,
  });
  add({
    field: "token",
    who: "visitor",
    method: "POST",
    path: "/reset-password?token=abcdef",
    ...form({ intent: "reset", token: nul("abcdef"), newPassword: "secret456" }),
  });
  add({
    field: "newPassword",
    who: "visitor",
    method: "POST",
    path: "/reset-password?token=abcdef",
    ...form({ intent: "reset", token: "abcdef", newPassword: nul("secret456") }),
  });

  const emptyPage = JSON.stringify({ type: "doc", content: [] });
  const settings = {
    name: "موقع",
    tagline: "",
    description: "",
    footerText: "",
    contactEmail: "",
    contactPhone: "",
    contactAddress: "",
    page_who: emptyPage,
    page_contact: emptyPage,
    page_privacy: emptyPage,
    page_development: emptyPage,
  };
  const settingsFaults: Record<string, string> = {
    name: nul("موقع"),
    tagline: nul("شعار"),
    description: nul("وصف"),
    footerText: nul("تذييل"),
    contactEmail: `${nul("a")}@example.com`,
    contactPhone: nul("01"),
    contactAddress: nul("طرابلس"),
    social_facebook: `https://www.facebook.com/${nul("a")}`,
    page_who: docWith(nul("من نحن")),
  };
  for (const [field, value] of Object.entries(settingsFaults))
    add({
      field,
      who: "admin",
      method: "POST",
      path: "/dashboard/settings",
      body: articleForm({ ...settings, [field]: value }),
    });
  // The media library: every field of its changes, and the poster's article id.
  const libraryChange = {
    url: "/media/news-images/0000000000000000-none.webp",
    x: "0.5",
    y: "0.5",
    alt: "وصف",
    caption: "تعليق",
    credit: "مصدر",
  };
  for (const [intent, names] of [
    ["focus", ["url", "x", "y"]],
    ["details", ["url", "alt", "caption", "credit"]],
    ["delete", ["url"]],
  ] as const) {
    for (const field of names)
      add({
        field,
        who: "admin",
        method: "POST",
        path: "/dashboard/media",
        ...form({ intent, ...libraryChange, [field]: nul(libraryChange[field]) }),
      });
  }
  add({
    field: "articleId",
    who: "admin",
    method: "POST",
    path: "/api/media/posters",
    body: articleForm({ articleId: nul(ids.articleId) }, [
      { field: "poster", name: "frame.png", bytes: Buffer.from("x") },
    ]),
  });
  return cases;
}

/**
 * The site's settings: hostile words, links, pages and files, each form with at least one
 * part refused. Its own random sequence, so the cases above stay the same for the same seed.
 */
function settingsCases(seed: number): HostileCase[] {
  const random = seededRandom(seed + 18);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);
  for (const path of ["/dashboard/settings", "/manifest.webmanifest"]) {
    const value = pick(STRINGS);
    add({
      name: `GET ${path}?hostile`,
      who: pick(["admin", "visitor"] as const),
      method: "GET",
      path: `${path}?saved=${enc(value)}&page=${enc(value)}`,
    });
  }
  const emptyPage = JSON.stringify({ type: "doc", content: [] });
  const settingsInvalid = ["link", "huge", "logo", "hugeImage", "page", "hidden"] as const;
  for (let i = 0; i < 60; i++) {
    const invalid = pick(settingsInvalid);
    const fields: Record<string, string> = {
      name: pick([...XSS, ...UNICODE.filter((s) => s.length < 80 && !/[\u0000-\u001F\u202E]/.test(s))]),
      tagline: pick(XSS),
      footerText: pick(XSS),
      contactEmail: "",
      social_facebook: pick(["https://www.facebook.com/x", ""]),
      page_who: emptyPage,
      page_contact: emptyPage,
      page_privacy: emptyPage,
      page_development: emptyPage,
    };
    if (invalid === "link")
      fields[pick(["social_facebook", "social_x", "social_instagram", "social_telegram", "social_whatsapp"])] = pick([
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:x",
        "//evil.example",
        ...XSS,
        ...TRAVERSAL,
      ]);
    if (invalid === "huge")
      fields[pick(["name", "tagline", "description", "footerText", "contactAddress", "contactEmail", "contactPhone"])] =
        pick(["x".repeat(70_000), "ع".repeat(10_000), "٣".repeat(1_000)]);
    if (invalid === "page")
      fields[pick(["page_who", "page_contact", "page_privacy", "page_development"])] = pick([
        "{",
        "null",
        "[]",
        JSON.stringify({ type: "doc", content: [{ type: "html", html: "<script>alert(1)</script>" }] }),
        JSON.stringify({
          type: "doc",
          content: [
            {
              type: "paragraph",
              content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }],
            },
          ],
        }),
        ...XSS,
      ]);
    if (invalid === "hidden") fields.tagline = pick(["\u202Eكتب\u202C", "a\u0000b", "\u0007"]);
    const files =
      invalid === "logo"
        ? [{ field: pick(["logo", "favicon", "shareImage"]), ...pick(lyingFiles()) }]
        : invalid === "hugeImage"
          ? [
              {
                field: pick(["logo", "favicon", "shareImage"]),
                name: "huge.png",
                bytes: pngClaiming(60_000, 60_000),
                type: "image/png",
              },
            ]
          : [];
    add({
      name: `POST /dashboard/settings bad ${invalid}`,
      who: "admin",
      method: "POST",
      path: "/dashboard/settings",
      body: articleForm(fields, files),
    });
    add({
      name: `POST /dashboard/settings signed out`,
      who: "visitor",
      method: "POST",
      path: "/dashboard/settings",
      body: articleForm(fields, files),
    });
  }

  for (const size of [1, 64 * 1024, 1024 * 1024, 3 * 1024 * 1024]) {
    add({
      name: `POST /dashboard/settings ${size} bytes of {`,
      who: "admin",
      method: "POST",
      path: "/dashboard/settings",
      body: Buffer.alloc(size, 0x7b),
      headers: { "content-type": pick(CONTENT_TYPES) || "application/octet-stream" },
    });
  }
  return cases;
}

/**
 * Topics: hostile addresses for the topic page, its feed, 'المزيد' and the autocomplete;
 * article forms whose topics field is refused (too long, too many, no letter) or carries hostile names
 * beside another refused part; the admins' screen with ids that name no topic. Nothing is stored.
 * Its own random sequence, so the cases above stay the same for the same seed.
 */
function topicCases(seed: number, ids: { articleId: string }): HostileCase[] {
  const random = seededRandom(seed + 33);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const who = () => pick(["admin", "visitor"] as const);
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);
  for (const value of STRINGS) {
    if (enc(value).length > 8 * 1024) continue;
    add({
      name: "GET /topic/:hostile",
      who: who(),
      method: "GET",
      path: `/topic/${enc(value)}?page=${enc(pick(NUMBERS))}`,
    });
    add({ name: "GET /topic/:hostile/rss.xml", who: "visitor", method: "GET", path: `/topic/${enc(value)}/rss.xml` });
    add({
      name: "GET /api/latest?topic",
      who: who(),
      method: "GET",
      path: `/api/latest?topic=${enc(value)}&page=${enc(pick(NUMBERS))}`,
    });
    add({ name: "GET /api/topics?q", who: who(), method: "GET", path: `/api/topics?q=${enc(value)}` });
  }
  const refusedTopics = [
    "ت".repeat(61),
    "ب".repeat(2_000),
    Array.from({ length: 11 }, (_, i) => `موضوع ${i}`).join("،"),
    "!!!، ؟؟؟",
    "ـــ",
    "\u064e\u0651",
  ];
  const articleTargets = [
    { method: "POST", path: "/api/news" },
    { method: "PUT", path: `/api/news/${ids.articleId}` },
    { method: "POST", path: "/dashboard" },
    { method: "POST", path: `/edit-news/${ids.articleId}` },
    { method: "POST", path: "/api/news/autosave" },
  ];
  for (let i = 0; i < 40; i++) {
    const target = pick(articleTargets);
    const refusedHere = random() < 0.5;
    // Either the topics are refused, or they are hostile names beside a title that is refused.
    const fields: Record<string, string> = {
      title: refusedHere ? "عنوان" : pick(["", " ", "\u200F"]),
      content: "نص",
      category: "local",
      status: "draft",
      submissionId: `hostile-topics-${i}`,
      topics: refusedHere ? pick(refusedTopics) : [pick(XSS), pick(TRAVERSAL), pick(FTS)].join("، "),
    };
    add({
      name: `${target.method} ${target.path} topics ${refusedHere ? "refused" : "hostile"}`,
      who: "admin",
      method: target.method,
      path: target.path,
      body: articleForm(fields),
    });
  }
  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  for (let i = 0; i < 30; i++) {
    const intent = pick(["rename", "merge", pick(STRINGS)]);
    const fields = { intent, id: pick(STRINGS), into: pick(STRINGS), name: pick(STRINGS) };
    add({
      name: `POST /dashboard/topics ${intent.slice(0, 20)}`,
      who: who(),
      method: "POST",
      path: "/dashboard/topics",
      ...form(fields),
    });
  }
  for (const type of CONTENT_TYPES)
    add({
      name: `POST /dashboard/topics as ${type || "no type"}`,
      who: "admin",
      method: "POST",
      path: "/dashboard/topics",
      body: '{"intent":"merge"}',
      headers: type ? { "content-type": type } : {},
    });
  return cases;
}

/**
 * The media library: hostile searches of its page and API, and changes naming URLs the
 * library does not hold, or hostile focal points and details; nothing is stored.
 */
function mediaLibraryCases(seed: number): HostileCase[] {
  const random = seededRandom(seed + 34);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const who = () => pick(["admin", "visitor"] as const);
  const cases: HostileCase[] = [];
  const add = (c: HostileCase) => cases.push(c);
  for (const value of STRINGS) {
    if (enc(value).length > 8 * 1024) continue;
    const query = `q=${enc(value)}&uploader=${enc(pick(STRINGS).slice(0, 200))}&from=${enc(pick([value, "2026-02-30", "9999-99-99"]))}&to=${enc(value)}&page=${enc(pick(NUMBERS))}`;
    const where = pick(["/dashboard/media", "/api/media/library"]);
    add({ name: `GET ${where}?hostile`, who: who(), method: "GET", path: `${where}?${query}` });
  }
  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  for (let i = 0; i < 30; i++) {
    const intent = pick(["focus", "details", "delete", pick(STRINGS)]);
    const url = pick([
      pick(STRINGS),
      pick(TRAVERSAL),
      "/media/news-images/0000000000000000-none.webp",
      "/media/../../etc/passwd",
    ]);
    const fields = {
      intent,
      url,
      x: pick([...NUMBERS, pick(STRINGS)]),
      y: pick([...NUMBERS, pick(STRINGS)]),
      alt: pick(STRINGS),
      caption: pick(STRINGS),
      credit: pick(STRINGS),
    };
    add({
      name: `POST /dashboard/media ${intent.slice(0, 20)}`,
      who: who(),
      method: "POST",
      path: "/dashboard/media",
      ...form(fields),
    });
  }
  for (let i = 0; i < 15; i++) {
    const value = pick(STRINGS);
    const fields = new FormData();
    fields.set("articleId", value);
    fields.set("poster", new Blob([pick(STRINGS)], { type: "image/png" }), pick(["frame.png", value.slice(0, 100)]));
    add({
      name: "POST /api/media/posters hostile",
      who: who(),
      method: "POST",
      path: "/api/media/posters",
      body: fields,
    });
  }
  for (const type of CONTENT_TYPES)
    add({
      name: `POST /dashboard/media as ${type || "no type"}`,
      who: "admin",
      method: "POST",
      path: "/dashboard/media",
      body: '{"intent":"delete"}',
      headers: type ? { "content-type": type } : {},
    });
  // Web Push (decision 037): every subscription, unsubscription and open below is malformed somewhere.
  const json = { "content-type": "application/json" };
  const keysOf = () =>
    pick([{ p256dh: pick(STRINGS), auth: "c2VjcmV0" }, { p256dh: "QktleQ", auth: pick(STRINGS) }, pick(STRINGS), null]);
  for (let i = 0; i < 25; i++) {
    const body = pick([
      JSON.stringify({
        subscription: {
          endpoint: pick([...XSS, ...TRAVERSAL, ...UNICODE]),
          keys: { p256dh: "QktleQ", auth: "c2VjcmV0" },
        },
        categories: [],
      }),
      JSON.stringify({ subscription: { endpoint: "https://push.example/hostile", keys: keysOf() }, categories: [] }),
      JSON.stringify({
        subscription: { endpoint: "https://push.example/hostile", keys: { p256dh: "QktleQ", auth: "c2VjcmV0" } },
        categories: [pick(STRINGS)],
      }),
      JSON.stringify({
        subscription: { endpoint: "https://push.example/hostile", keys: { p256dh: "QktleQ", auth: "c2VjcmV0" } },
        categories: pick(STRINGS),
      }),
      pick(STRINGS),
    ]);
    add({
      name: "POST /api/push/subscriptions hostile",
      who: who(),
      method: "POST",
      path: "/api/push/subscriptions",
      body,
      headers: json,
    });
    add({
      name: "DELETE /api/push/subscriptions hostile",
      who: who(),
      method: "DELETE",
      path: "/api/push/subscriptions",
      body: pick([JSON.stringify({ endpoint: pick([...XSS, ...TRAVERSAL]) }), pick(STRINGS)]),
      headers: json,
    });
    add({
      name: "POST /api/push/opened hostile",
      who: who(),
      method: "POST",
      path: "/api/push/opened",
      body: pick([
        JSON.stringify({ alertId: pick([...NUMBERS, pick(STRINGS)]) }),
        JSON.stringify({ alertId: pick([-1, 0, 1e99, 99_999_999]) }),
        pick(STRINGS),
      ]),
      headers: json,
    });
  }
  for (const type of CONTENT_TYPES)
    add({
      name: `POST /api/push/subscriptions as ${type || "no type"}`,
      who: "visitor",
      method: "POST",
      path: "/api/push/subscriptions",
      body: '{"subscription":{}}',
      headers: type ? { "content-type": type } : {},
    });
  return cases;
}
