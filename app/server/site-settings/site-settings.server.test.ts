import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newsroomMessages, settingsMessages } from "~/lib/newsroom-messages";
import { documentFromPlainText } from "~/lib/rich-text/document";
import { NEUTRAL_SETTINGS, type SiteSettings } from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import { localStorage } from "~/server/media/local-storage.server";
import { stagingDirOf } from "~/server/media/media-storage.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { readEventsAfter } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import { createReadCache } from "~/server/platform/read-cache.server";
import { demoSettings } from "~/server/demo/demo-settings";
import { createTempDatabase } from "../../../harness/temp-db";
import { exeBytes, pngBytes } from "../../../harness/fixtures";
import { withSubmission } from "~/server/http/multipart-form.server";
import { readForm } from "~/server/http/read-form.server";
import {
  saveSettings,
  SETTINGS_FORM_LIMITS,
  SETTINGS_FORM_READING,
  settingsSubmissionSchema,
} from "./settings-form.server";
import { cachedSiteFrame, cachedSiteSettings, readSiteSettings, writeSiteSettings } from "./site-settings.server";

let db: DB;
let cleanup: () => Promise<void>;
let mediaDir: string;
let storage: MediaStorage;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  mediaDir = await mkdtemp(path.join(tmpdir(), "akhbar-settings-"));
  storage = localStorage(mediaDir);
});
afterEach(async () => {
  await cleanup();
  await rm(mediaDir, { recursive: true, force: true });
});

const site = () => ({ db, storage });

function formOf(settings: SiteSettings, overrides: Record<string, string | Blob> = {}): FormData {
  const form = new FormData();
  const values: Record<string, string | Blob> = {
    name: settings.name,
    tagline: settings.tagline,
    description: settings.description,
    footerText: settings.footerText,
    contactEmail: settings.contact.email,
    contactPhone: settings.contact.phone,
    contactAddress: settings.contact.address,
    ...Object.fromEntries(Object.entries(settings.social).map(([network, url]) => [`social_${network}`, url])),
    ...Object.fromEntries(
      Object.entries(settings.infoPages).map(([key, document]) => [`page_${key}`, JSON.stringify(document)]),
    ),
    ...overrides,
  };
  for (const [name, value] of Object.entries(values)) {
    if (value instanceof Blob) form.append(name, value, `${name}.bin`);
    else form.append(name, value);
  }
  return form;
}

const post = (form: FormData) => new Request("http://localhost/dashboard/settings", { method: "POST", body: form });
/** The form as the settings page's action saves it: read, staged, saved, the staged files removed. */
const save = (form: FormData) =>
  withSubmission(post(form), stagingDirOf(mediaDir), SETTINGS_FORM_LIMITS, async (submission) =>
    saveSettings(
      site(),
      await readForm(settingsSubmissionSchema, submission, SETTINGS_FORM_READING),
      submission.files,
      "admin",
    ),
  );

async function refusal(form: FormData): Promise<AppError> {
  const error = await save(form).then(
    () => null,
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

async function storedFiles(): Promise<string[]> {
  return readdir(path.join(mediaDir, "site-images")).catch(() => []);
}

describe("site settings", () => {
  it("reads neutral values until saved, then what was saved, with an outbox event", async () => {
    expect(await readSiteSettings(db)).toEqual({ settings: NEUTRAL_SETTINGS, saved: false, updatedAt: null });
    await writeSiteSettings(db, demoSettings, null, new Date("2026-11-22T10:00:00Z"));
    const stored = await readSiteSettings(db);
    expect(stored).toEqual({ settings: demoSettings, saved: true, updatedAt: "2026-11-22T10:00:00.000Z" });
    const events = await readEventsAfter(db, 0, 10);
    expect(events.map((event) => event.kind)).toEqual(["settings-changed"]);
  });

  it("serves every page from the read cache until the follower empties it", async () => {
    const cache = createReadCache();
    expect((await cachedSiteSettings(db, cache)).settings.name).toBe(settingsMessages.neutralSiteName);
    await writeSiteSettings(db, { ...demoSettings, name: "صدى البلد" }, null);
    expect((await cachedSiteSettings(db, cache)).settings.name).toBe(settingsMessages.neutralSiteName);
    cache.clear();
    expect((await cachedSiteSettings(db, cache)).settings.name).toBe("صدى البلد");
  });

  it("gives every page the same frame object until a change, which the shell's kept regions are keyed by", async () => {
    const cache = createReadCache();
    const frame = await cachedSiteFrame(db, cache);
    expect(await cachedSiteFrame(db, cache)).toBe(frame);
    cache.clear();
    expect(await cachedSiteFrame(db, cache)).not.toBe(frame);
  });

  it("reads a row that is not settings as neutral, never failing the page", async () => {
    await db
      .insertInto("site_settings")
      .values({ id: 1, value: '{"name":"<script>"', updated_at: new Date().toISOString(), updated_by: null })
      .execute();
    expect((await readSiteSettings(db)).settings).toEqual(NEUTRAL_SETTINGS);
  });
});

describe("the settings form", () => {
  it("saves the text, the links, the pages and the logo resized for the header, the manifest and JSON-LD", async () => {
    const who = documentFromPlainText("نحن غرفة أخبار صغيرة.");
    const logo = new Blob([new Uint8Array(await pngBytes(900, 600))], { type: "image/png" });
    await save(
      formOf({ ...demoSettings, name: "  صدى البلد  ", infoPages: { ...demoSettings.infoPages, who } }, { logo }),
    );
    const { settings } = await readSiteSettings(db);
    expect(settings.name).toBe("صدى البلد");
    expect(settings.social).toEqual(demoSettings.social);
    expect(settings.infoPages.who).toEqual(who);
    for (const [url, size] of [
      [settings.images.logo, 256],
      [settings.images.icon192, 192],
      [settings.images.icon512, 512],
    ] as const) {
      expect(url).toMatch(/^\/media\/site-images\/.+\.png$/);
      const meta = await sharp(path.join(mediaDir, url!.slice("/media/".length))).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    // A new logo replaces the old files.
    const before = await storedFiles();
    await save(formOf(settings, { logo: new Blob([new Uint8Array(await pngBytes(300, 300, "#123456"))]) }));
    const after = await storedFiles();
    expect(after).toHaveLength(3);
    expect(after.filter((name) => before.includes(name))).toEqual([]);
  });

  it("makes the share image 1200×630 and the favicon 32 and 180 pixels", async () => {
    const shareImage = new Blob([new Uint8Array(await pngBytes(2000, 800))]);
    const favicon = new Blob([new Uint8Array(await pngBytes(200, 200))]);
    await save(formOf(demoSettings, { shareImage, favicon }));
    const { images } = (await readSiteSettings(db)).settings;
    const size = async (url: string | null) => {
      const meta = await sharp(path.join(mediaDir, url!.slice("/media/".length))).metadata();
      return [meta.width, meta.height];
    };
    expect(await size(images.shareImage)).toEqual([1200, 630]);
    expect(await size(images.favicon32)).toEqual([32, 32]);
    expect(await size(images.appleTouch)).toEqual([180, 180]);
  });

  it("refuses javascript: links, script-free but hidden text, a missing name and wrong page JSON, storing nothing", async () => {
    await writeSiteSettings(db, demoSettings, null);
    const cases: [Record<string, string>, string, string][] = [
      [{ social_facebook: "javascript:alert(1)" }, "social_facebook", settingsMessages.settingsLinkInvalid],
      [{ social_x: "data:text/html,<script>alert(1)</script>" }, "social_x", settingsMessages.settingsLinkInvalid],
      [{ name: "   " }, "name", settingsMessages.settingsNameRequired],
      [{ name: "ع".repeat(81) }, "name", settingsMessages.settingsNameTooLong],
      [{ tagline: "\u202Eكتب" }, "tagline", settingsMessages.settingsHiddenCharacters],
      [{ contactEmail: "<script>@x" }, "contactEmail", settingsMessages.settingsEmailInvalid],
      [{ page_who: "{not json" }, "page_who", settingsMessages.settingsPageInvalid],
      [
        {
          page_privacy: JSON.stringify({ type: "doc", content: [{ type: "html", html: "<script>alert(1)</script>" }] }),
        },
        "page_privacy",
        settingsMessages.settingsPageInvalid,
      ],
    ];
    for (const [overrides, field, message] of cases) {
      const error = await refusal(formOf(demoSettings, overrides));
      expect(error.status, field).toBe(400);
      expect(error.fields?.[field], field).toBe(message);
    }
    expect((await readSiteSettings(db)).settings).toEqual(demoSettings);
    expect(await readEventsAfter(db, 1, 10)).toEqual([]);
  });

  it("refuses a file that is not an image, an image too small and one too large to decode, storing nothing", async () => {
    await writeSiteSettings(db, demoSettings, null);
    // A PNG header claiming 50,000 × 50,000 pixels: refused from its header, never decoded.
    const huge = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    huge.writeUInt32BE(50_000, 16);
    huge.writeUInt32BE(50_000, 20);
    const cases: [Buffer, string][] = [
      [exeBytes(), newsroomMessages.imageInvalid],
      [await pngBytes(20, 20), settingsMessages.settingsImageTooSmall],
      [huge, settingsMessages.settingsImageHuge],
    ];
    for (const [bytes, message] of cases) {
      const error = await refusal(formOf(demoSettings, { logo: new Blob([new Uint8Array(bytes)]) }));
      expect(error.status).toBe(400);
      expect(error.fields?.logo).toBe(message);
    }
    expect((await readSiteSettings(db)).settings).toEqual(demoSettings);
    expect(await storedFiles()).toEqual([]);
  });
});
