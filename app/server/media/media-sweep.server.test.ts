import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { pngBytes } from "../../../harness/fixtures";
import { ORPHAN_AGE_MS, sweepMedia } from "./media-sweep.server";
import { localStorage } from "./local-storage.server";
import { storeImage } from "./media.server";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-sweep-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const list = (sub: string) => readdirSync(path.join(dir, sub)).sort();

function age(sub: string, ms: number) {
  const when = new Date(Date.now() - ms);
  for (const name of list(sub)) utimesSync(path.join(dir, sub, name), when, when);
}

it("empties staging and removes unreferenced media older than an hour, keeping referenced images with their variants", async () => {
  const kept = await storeImage(localStorage(dir), await pngBytes(), "kept.png");
  const orphan = await storeImage(localStorage(dir), await pngBytes(), "orphan.png");
  mkdirSync(path.join(dir, "news-videos"));
  writeFileSync(path.join(dir, "news-videos", "kept.mp4"), "v");
  writeFileSync(path.join(dir, "news-videos", "orphan.mp4"), "12345");
  age("news-images", ORPHAN_AGE_MS + 60_000);
  age("news-videos", ORPHAN_AGE_MS + 60_000);
  writeFileSync(path.join(dir, "news-videos", "young.mp4"), "publishing right now");
  mkdirSync(path.join(dir, ".staging", "123-abc"), { recursive: true });
  writeFileSync(path.join(dir, ".staging", "123-abc", "0"), Buffer.alloc(1000));

  const report = await sweepMedia(path.join(dir, ".staging"), localStorage(dir), [
    kept,
    "/media/news-videos/kept.mp4",
    "https://example.com/x.jpg",
  ]);

  expect(report.staged).toEqual({ files: 1, bytes: 1000 });
  expect(report.orphans.names.sort()).toEqual(
    [
      ...["", "-400w", "-800w", "-1200w"].map((w) => `news-images/${path.basename(orphan, ".webp")}${w}.webp`),
      "news-videos/orphan.mp4",
    ].sort(),
  );
  expect(readdirSync(dir).includes(".staging")).toBe(false);
  const stem = path.basename(kept, ".webp");
  expect(list("news-images")).toEqual([`${stem}-1200w.webp`, `${stem}-400w.webp`, `${stem}-800w.webp`, `${stem}.webp`]);
  expect(list("news-videos")).toEqual(["kept.mp4", "young.mp4"]);
});

it("a missing media folder is nothing to sweep", async () => {
  const report = await sweepMedia(path.join(dir, "missing", ".staging"), localStorage(path.join(dir, "missing")), []);
  expect(report).toEqual({ staged: { files: 0, bytes: 0 }, orphans: { names: [], bytes: 0 } });
});
