import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { editorMessages, conflictMessages, newsroomMessages } from "../../app/lib/newsroom-messages";
import type { RichDocument } from "../../app/lib/rich-text/document";
import { pngBytes } from "../../harness/fixtures";
import { DEMO_SITES, FILES_DIR } from "./servers";
import { articleIdByTitle, bodyEditor, hydrated, readSiteDatabase, watchConsole } from "./support";
import { expect, test } from "./test";

// The article body (decision 021): an editor writes with the toolbar and shortcuts, pastes from Word
// and Google Docs, and a reader sees the body right to left at 375 and 1280 px.
const SHOTS = path.resolve(".tmp/article-editor");
/** International: no other spec counts its articles (public-site counts /local). */
const CATEGORY = "international";

/** Word's clipboard HTML, trimmed to its usual parts: Office namespaces, classes, inline styles, spans, empty `o:p`. */
const WORD_HTML = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta charset="utf-8"><style>p.MsoNormal{margin:0cm;font-size:11.0pt;font-family:"Calibri",sans-serif}</style></head>
<body lang=AR-SA dir=RTL><!--StartFragment-->
<h1 dir=RTL style='margin-top:12.0pt;mso-outline-level:1'><span lang=AR-SA style='font-size:20.0pt;font-family:"Times New Roman",serif;color:#2F5496'>عنوان من وورد</span></h1>
<p class=MsoNormal dir=RTL style='text-align:right;direction:rtl'><span lang=AR-SA style='font-size:14.0pt;color:red;font-family:"Arial"'>نص عادي و</span><b><span lang=AR-SA style='font-family:"Arial"'>نص عريض</span></b><span lang=AR-SA> و</span><a href="https://example.org/word"><span style='color:#0563C1'>رابط وورد</span></a><o:p></o:p></p>
<ul style='margin-top:0cm' type=disc><li class=MsoNormal dir=RTL style='mso-list:l0 level1 lfo1'><span lang=AR-SA style='font-family:"Arial"'>بند أول</span></li><li class=MsoNormal dir=RTL style='mso-list:l0 level1 lfo1'><span lang=AR-SA>بند ثانٍ</span></li></ul>
<p class=MsoNormal dir=RTL><a href="javascript:alert(1)">رابط خبيث</a><img src="https://evil.example/tracker.png" width=1 height=1><font face="Wingdings" color="blue">خط غريب</font><script>alert(2)</script></p>
<!--EndFragment--></body></html>`;

/** Google Docs' clipboard HTML: everything inside a `b` of normal weight, styles on every span. */
const DOCS_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-7f0c1a2b-7fff-1234-5678-9abcdef01234"><h2 dir="rtl" style="line-height:1.38;margin-top:18pt;margin-bottom:6pt;text-align:right;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;">عنوان من مستندات جوجل</span></h2><p dir="rtl" style="line-height:1.38;text-align:right;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">كلمة عريضة</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;"> ثم </span><a href="https://example.org/docs" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;text-decoration:underline;">رابط المستند</span></a></p><ol style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="rtl" style="list-style-type:decimal;font-size:11pt;" aria-level="1"><p dir="rtl" role="presentation" style="text-align:right;"><span style="font-size:11pt;">أولاً</span></p></li><li dir="rtl" style="list-style-type:decimal;" aria-level="1"><p dir="rtl" role="presentation"><span style="font-size:11pt;">ثانياً</span></p></li></ol></b>`;

/**
 * Pastes `html` (with its plain text) at the end of the body editor, in a new paragraph, as a paste
 * event carrying the clipboard's data: the markup exactly as Word or Docs put it there (Chromium's
 * async clipboard API would rewrite it on the way in).
 */
async function pasteHtml(page: Page, html: string) {
  const lastParagraph = bodyEditor(page).locator(":scope > p").last();
  if ((await lastParagraph.count()) > 0) {
    await lastParagraph.click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
  } else {
    await bodyEditor(page).click();
  }
  await bodyEditor(page).evaluate((editor, markup) => {
    const data = new DataTransfer();
    data.setData("text/html", markup);
    data.setData("text/plain", new DOMParser().parseFromString(markup, "text/html").body.textContent ?? "");
    editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, html);
}

async function postedBody(page: Page): Promise<RichDocument> {
  return JSON.parse(await page.locator('input[name="body"]').inputValue()) as RichDocument;
}

async function noSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(clientWidth!);
}

for (const site of DEMO_SITES) {
  test.describe(`the article body editor on ${site.engine}`, () => {
    test.describe.configure({ mode: "serial" });
    test.use({
      baseURL: site.url,
      signedInAs: { site, role: "editor", name: "سلمى المحررة", emailPrefix: "article-editor" },
      navigationTimeout: 15_000,
      actionTimeout: 15_000,
    });

    test.beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(path.join(FILES_DIR, "in-body.png"), await pngBytes(1200, 800, "#264653"));
    });

    test("an editor writes a heading, bold text, a link, a list, a quote, a captioned image and a YouTube embed; a reader sees them right to left at 375 and 1280 px", async ({
      editorPage: page,
      context,
    }) => {
      test.setTimeout(90_000);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const noConsoleErrors = watchConsole(page);
      page.on("dialog", (dialog) => void dialog.accept());
      const title = `خبر بمتن منسّق ${site.engine} ${Date.now()}`;
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await page.getByLabel(newsroomMessages.fieldCategory).selectOption(CATEGORY);

      const editor = bodyEditor(page);
      await editor.click();
      // Shortcuts: a level-2 heading, then bold inside a paragraph.
      await page.keyboard.press("ControlOrMeta+Alt+2");
      await page.keyboard.insertText("عنوان داخل الخبر");
      await expect(page.getByRole("button", { name: editorMessages.heading2 })).toHaveAttribute("aria-pressed", "true");
      await page.keyboard.press("Enter");
      await page.keyboard.insertText("فقرة فيها ");
      await page.keyboard.press("ControlOrMeta+b");
      await expect(page.getByRole("button", { name: editorMessages.bold })).toHaveAttribute("aria-pressed", "true");
      await page.keyboard.insertText("كلمة عريضة");
      await page.keyboard.press("ControlOrMeta+b");
      await page.keyboard.insertText(" ثم ");
      // A link through Ctrl+K: an unsafe address is refused in Arabic, a safe one is inserted.
      await page.keyboard.press("ControlOrMeta+k");
      const linkField = page.getByLabel(editorMessages.linkPrompt);
      await linkField.fill("javascript:alert(1)");
      await linkField.press("Enter");
      await expect(page.getByTestId("link-panel").getByRole("alert")).toHaveText(editorMessages.linkUnsafe);
      await linkField.fill("https://example.org/report");
      await linkField.press("Enter");
      await expect(editor.locator('a[href="https://example.org/report"]')).toHaveText("https://example.org/report");
      // A bulleted list from the toolbar.
      await page.keyboard.press("End");
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: editorMessages.bulletList }).click();
      await page.keyboard.insertText("البند الأول");
      await page.keyboard.press("Enter");
      await page.keyboard.insertText("البند الثاني");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      // A quote by its shortcut.
      await page.keyboard.press("ControlOrMeta+Shift+b");
      await page.keyboard.insertText("قال رئيس البلدية إن العمل سينتهي قريباً.");
      await expect(page.getByRole("button", { name: editorMessages.quote })).toHaveAttribute("aria-pressed", "true");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      // An image uploaded into the text, with its caption, credit and description.
      await page.getByRole("button", { name: editorMessages.image }).click();
      const panel = page.getByTestId("image-panel");
      await panel.locator('[data-image-field="file"]').setInputFiles(path.join(FILES_DIR, "in-body.png"));
      await panel.getByLabel(editorMessages.imageCaption).fill("الواجهة البحرية بعد الترميم");
      await panel.getByLabel(editorMessages.imageCreditField).fill("عدسة الموقع");
      await panel.getByLabel(editorMessages.imageAlt).fill("صورة الواجهة البحرية");
      await panel.getByRole("button", { name: editorMessages.imageInsert }).click();
      await expect(editor.locator("figure img")).toHaveAttribute("src", /\/media\/news-images\//);
      // A YouTube link pasted on its own becomes an embed card.
      await page.evaluate(() => navigator.clipboard.writeText("https://youtu.be/dQw4w9WgXcQ"));
      await editor.locator(":scope > .node-figure + p").click();
      await page.keyboard.press("ControlOrMeta+v");
      await expect(editor.locator('[data-embed="youtube"]')).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `editor-${site.engine}-1280.png`), fullPage: true });

      await page.getByLabel(new RegExp(newsroomMessages.statusPublishNow)).check();
      await page.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
      await expect(page.getByRole("status")).toContainText(newsroomMessages.published);
      const id = await articleIdByTitle(site, title);
      const row = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select(["content", "body"]).where("id", "=", id).executeTakeFirstOrThrow(),
      );
      const body = JSON.parse(row.body!) as RichDocument;
      expect(body.content.map((node) => node.type)).toEqual([
        "heading",
        "paragraph",
        "bulletList",
        "blockquote",
        "figure",
        "embed",
      ]);
      expect(row.content).toContain(
        "عنوان داخل الخبر\nفقرة فيها كلمة عريضة ثم https://example.org/report\nالبند الأول\nالبند الثاني",
      );
      noConsoleErrors();

      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/news/${id}`, { waitUntil: "load" });
        const content = page.getByTestId("article-content");
        await expect(content.locator("h2")).toHaveText("عنوان داخل الخبر");
        await expect(content.locator("strong")).toHaveText("كلمة عريضة");
        await expect(content.locator('a[href="https://example.org/report"]')).toHaveAttribute("rel", /nofollow/);
        await expect(content.locator("ul > li")).toHaveText(["البند الأول", "البند الثاني"]);
        await expect(content.locator("blockquote")).toContainText("رئيس البلدية");
        await expect(content.locator("figure figcaption")).toContainText("الواجهة البحرية بعد الترميم");
        await expect(content.locator("figure figcaption")).toContainText("عدسة الموقع");
        await expect(content.locator("figure img")).toHaveAttribute("alt", "صورة الواجهة البحرية");
        await expect(content.locator('[data-embed="youtube"] a')).toHaveAttribute(
          "href",
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        );
        expect(await content.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
        // The list's bullets and the quote's bar sit on the right, where Arabic starts.
        expect(
          await content
            .locator("ul")
            .evaluate((list) => [getComputedStyle(list).paddingRight, getComputedStyle(list).paddingLeft]),
        ).toEqual(["24px", "0px"]);
        expect(
          await content
            .locator("blockquote")
            .evaluate((quote) => [getComputedStyle(quote).borderRightWidth, getComputedStyle(quote).borderLeftWidth]),
        ).toEqual(["4px", "0px"]);
        const image = content.locator("figure img");
        await image.scrollIntoViewIfNeeded();
        await expect
          .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
          .toBe(true);
        const [shown, natural] = await image.evaluate((img: HTMLImageElement) => [
          img.clientWidth / img.clientHeight,
          img.naturalWidth / img.naturalHeight,
        ]);
        expect(Math.abs(shown! - natural!)).toBeLessThan(0.02);
        await noSidewaysScroll(page);
        await content.screenshot({ path: path.join(SHOTS, `article-${site.engine}-${width}.png`) });
        await page.screenshot({ path: path.join(SHOTS, `article-page-${site.engine}-${width}.png`), fullPage: true });
      }
    });

    test("pasting from Word and Google Docs keeps headings, lists, bold and links, and drops styles, spans, fonts, scripts and other sites' images", async ({
      editorPage: page,
      context,
    }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const editor = bodyEditor(page);
      await pasteHtml(page, WORD_HTML);
      await expect(editor.locator("h2").first()).toHaveText("عنوان من وورد");
      await pasteHtml(page, DOCS_HTML);
      await expect(editor.locator("h2")).toHaveText(["عنوان من وورد", "عنوان من مستندات جوجل"]);
      await expect(editor.locator("strong")).toHaveText(["نص عريض", "كلمة عريضة"]);
      await expect(editor.locator("a")).toHaveText(["رابط وورد", "رابط المستند"]);
      await expect(editor.locator("a").first()).toHaveAttribute("href", "https://example.org/word");
      await expect(editor.locator("ul > li")).toHaveText(["بند أول", "بند ثانٍ"]);
      await expect(editor.locator("ol > li")).toHaveText(["أولاً", "ثانياً"]);
      await expect(editor).toContainText("رابط خبيث");
      await expect(editor).toContainText("خط غريب");
      expect(
        await editor.locator("span, font, img, script, [style], [class]:not(.ProseMirror-trailingBreak)").count(),
      ).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, `pasted-${site.engine}-1280.png`), fullPage: true });

      const types = (await postedBody(page)).content.map((node) => node.type);
      expect(types).toEqual(["heading", "paragraph", "bulletList", "paragraph", "heading", "paragraph", "orderedList"]);

      // Saved as a draft, the stored document holds the structure and nothing of the rest.
      const title = `مسودة ملصوقة ${site.engine} ${Date.now()}`;
      await page.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
      await page.getByLabel(newsroomMessages.fieldCategory).selectOption(CATEGORY);
      await page.getByLabel(new RegExp(newsroomMessages.statusSaveDraft)).check();
      await page.getByRole("button", { name: conflictMessages.submitDraft }).click();
      await expect(page.getByRole("status")).toContainText(newsroomMessages.savedAsDraft);
      const id = await articleIdByTitle(site, title);
      const stored = await readSiteDatabase(site, (db) =>
        db.selectFrom("news").select("body").where("id", "=", id).executeTakeFirstOrThrow(),
      );
      for (const dropped of [
        "style",
        "class",
        "span",
        "font",
        "javascript",
        "evil.example",
        "script",
        "Mso",
        "rel",
        "target",
      ])
        expect(stored.body).not.toContain(dropped);
      const document = JSON.parse(stored.body!) as RichDocument;
      expect(document.content.map((node) => node.type)).toEqual(types);
      expect(stored.body).toContain('"marks":[{"type":"link","attrs":{"href":"https://example.org/word"}}]');
    });

    test("an article written before the editor still renders as paragraphs, and opens in the editor as them", async ({
      page,
    }) => {
      const legacy = await readSiteDatabase(site, (db) =>
        db
          .selectFrom("news")
          .select(["id", "content"])
          .where("body", "is", null)
          .where("status", "=", "published")
          .orderBy("created_at", "desc")
          .limit(1)
          .executeTakeFirstOrThrow(),
      );
      const paragraphs = legacy.content
        .split(/\n+/)
        .map((line) => line.trim())
        .filter(Boolean);
      await page.goto(`/news/${legacy.id}`);
      await expect(page.getByTestId("article-content").locator("p")).toHaveText(paragraphs);
      await page.goto(`/edit-news/${legacy.id}`);
      await hydrated(page);
      await expect(bodyEditor(page).locator("p")).toHaveText(paragraphs);
    });
  });
}
