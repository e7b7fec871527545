import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BreakingEvent, BreakingItem } from "~/lib/breaking";
import type { DB } from "~/server/db/db.server";
import { publishForm } from "../../harness/articles";
import { callApi, getExactly, type Session } from "../../harness/http-client";
import { connectSse } from "../support/sse";
import type { TestServer } from "../../harness/test-server";
import { signedInAs } from "../../harness/accounts";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * Every list a reader clicks through links an article by its readable address, /news/{id}/{slug}
 * (decision 033): a link to /news/{id} would cost the reader a 301 round trip.
 */

let server: TestServer;
let db: DB;
let editor: Session;
const AUTHOR = "سلمى المحررة";
const TOPIC = "معرض الكتاب";

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = {
    cookie: await signedInAs(db, server.site, { email: "links@example.com", username: AUTHOR, role: "editor" }),
  };
});
afterAll(() => stopServerAndDb({ server, db }));

async function publish(title: string, fields: Record<string, string> = {}): Promise<string> {
  const { status, json } = await callApi(
    `${server.url}/api/news`,
    "POST",
    publishForm(title, { topics: TOPIC, ...fields }),
    editor,
  );
  expect(status, JSON.stringify(json)).toBe(201);
  return json.id!;
}

const slugOf = async (id: string) =>
  (await db.selectFrom("news").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;

/** The article links of a page that stop at the id: `/news/{id}` with no slug after it. */
function linksWithoutSlug(html: string): string[] {
  return [...html.matchAll(/href="(\/news\/[^"/?#]+)"/g)].map((match) => match[1]!);
}

async function html(path: string): Promise<string> {
  const response = await getExactly(`${server.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("links to an article", () => {
  it("every reader page links each article by its readable address, never /news/{id} alone", async () => {
    const local = await publish("افتتاح معرض الكتاب في طرابلس");
    await publish("عاصفة تضرب الساحل الشمالي", { category: "breaking" });
    await publish("فوز فريق طرابلس في الدوري", { category: "sports" });
    const topicSlug = (await db.selectFrom("topics").select("slug").where("name", "=", TOPIC).executeTakeFirstOrThrow())
      .slug;
    const article = `/news/${local}/${encodeURIComponent((await slugOf(local))!)}`;

    const pages = [
      "/",
      "/breaking",
      "/local",
      "/sports",
      `/topic/${encodeURIComponent(topicSlug)}`,
      `/author/${encodeURIComponent(AUTHOR)}`,
      `/search?query=${encodeURIComponent("طرابلس")}`,
      article,
    ];
    for (const path of pages) {
      const page = await html(path);
      expect(page, path).toMatch(/href="\/news\/[^"/?#]+\/[^"]+"/);
      expect(linksWithoutSlug(page), path).toEqual([]);
    }
  });

  it("the breaking list's API and stream give each item its slug, as the ticker links it", async () => {
    const stream = await connectSse(`${server.url}/api/breaking/stream`);
    try {
      const [snapshot] = await stream.waitFor(1);
      expect((snapshot!.data as BreakingEvent).type).toBe("snapshot");
      const id = await publish("انقطاع الكهرباء في المنية", { category: "breaking" });
      const slug = await slugOf(id);
      expect(slug).toBeTruthy();
      const created = (await stream.waitFor(2))[1]!.data as BreakingEvent;
      expect(created).toMatchObject({ type: "created", item: { id, slug } });

      const { items } = (await (await getExactly(`${server.url}/api/breaking`)).json()) as { items: BreakingItem[] };
      expect(items.find((item) => item.id === id)).toMatchObject({ slug });
    } finally {
      stream.close();
    }
  });
});
