import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryLabel } from "~/lib/categories";
import { statsMessages as m } from "~/lib/newsroom-messages";
import type { Device, Source } from "~/lib/reader-classes";
import type { DB } from "~/server/db/db.server";
import { viewOf } from "~/server/visits/view.server";
import { recordViews } from "~/server/visits/visits.server";
import { createTestArticle } from "../../harness/articles";
import { get, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/* The stats page's CSV says what the page shows: its Arabic labels, and its hours in Beirut time. */

let server: TestServer;
let db: DB;
let editor: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = await sessionAs(db, server, { email: "csv@example.com", username: "محرر الأرقام", role: "editor" });
});
afterAll(() => stopServerAndDb({ server, db }));

let readers = 0;
async function views(newsId: string, count: number, source: Source, device: Device, at: Date) {
  const made = Array.from({ length: count }, () => {
    const reader = `csv-reader-${String(++readers).padStart(8, "0")}`;
    return viewOf("csv-secret-csv-secret-csv-secret", {
      newsId,
      reader,
      address: `198.51.100.${readers}`,
      source,
      device,
      at,
    });
  });
  await recordViews(db, made);
}

async function csv(table: string): Promise<string[][]> {
  const response = await get(`${server.url}/dashboard/stats.csv?range=today&table=${table}`, editor);
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

describe("the stats CSV", () => {
  it("labels categories, sources, devices and a story without an author as the page does, and gives its hours in Beirut time", async () => {
    const at = new Date(Date.now() - 60_000);
    const story = (await createTestArticle(db, { title: "عاصفة على الساحل", category: "breaking" })).id;
    await views(story, 3, "facebook", "phone", at);

    const [seriesHeading, ...hours] = await csv("series");
    expect.soft(seriesHeading).toEqual([m.csvHour, m.views, m.readers]);
    // The hour as a clock in Beirut read it, whatever the server's zone.
    const beirutHour = `${at.toLocaleString("sv-SE", { timeZone: "Asia/Beirut" }).slice(0, 13)}:00`;
    expect.soft(hours).toContainEqual([beirutHour, "3", "3"]);

    expect.soft(await csv("categories")).toContainEqual(["breaking", categoryLabel("breaking"), "3"]);
    expect.soft(await csv("sources")).toContainEqual(["facebook", m.sourceLabels.facebook, "3"]);
    expect.soft(await csv("devices")).toContainEqual(["phone", m.deviceLabels.phone, "3"]);
    expect.soft(await csv("authors")).toContainEqual(["", m.noAuthor, "3"]);
    expect.soft(await csv("top")).toContainEqual([story, "عاصفة على الساحل", "3"]);
  });
});
