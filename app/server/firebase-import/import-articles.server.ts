import { importArticle, type ImportedArticle } from "~/server/news/imported-articles.server";
import { writeWithEvents } from "~/server/outbox/outbox.server";
import type { FirebaseArticle, FirebaseShortLink } from "./firebase-records.server";
import { copyMedia, storedMedia } from "./import-media.server";
import { warn } from "./import-report.server";
import { DEFAULT_BATCH_SIZE, inBatches, type Run } from "./import-run.server";
import { recordImported } from "./import-state.server";
import { planArticles, type PlannedArticle } from "./plan-articles.server";

/**
 * Articles, legacy news, their short links and media: the plan, then in batches the batch's files
 * copied and its articles written in one transaction (a dry run counts instead).
 */
export async function importArticles(run: Run): Promise<void> {
  const { total, toWrite, existing } = await planArticles(run);
  const mediaOf = await storedMedia(
    run,
    toWrite.map((article) => article.record),
  );
  let done = total - toWrite.length;
  run.options.onProgress?.("articles", done, total);
  for (const batch of inBatches(toWrite, run.options.batchSize ?? DEFAULT_BATCH_SIZE)) {
    const copied = new Map<string, string>();
    for (const article of batch) await copyMedia(run, article.record, mediaOf, copied);
    if (!run.options.dryRun) await writeArticles(run, batch, mediaOf, copied);
    else for (const article of batch) await countDryRun(run, article, existing);
    done += batch.length;
    run.options.onProgress?.("articles", done, total);
  }
}

/** The Firebase article as the news domain imports it, its media at the URLs `local` gives. */
export function importedArticleOf(
  record: FirebaseArticle,
  links: FirebaseShortLink[],
  local: (url: string) => string,
): ImportedArticle {
  const { published, createdAt, updatedAt, ...fields } = record;
  return {
    ...fields,
    images: record.images.map(local),
    imageUrl: record.imageUrl && local(record.imageUrl),
    video: record.video && local(record.video),
    status: published ? "published" : "draft",
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt?.toISOString() ?? null,
    shortLinks: links.map((link) => ({
      shortId: link.shortId,
      createdAt: (link.createdAt ?? createdAt).toISOString(),
    })),
  };
}

async function countDryRun(run: Run, article: PlannedArticle, existing: Set<string>): Promise<void> {
  run.report.counts[article.kind][existing.has(article.record.id) ? "updated" : "created"]++;
  for (const link of article.links) {
    const holder = await run.db
      .selectFrom("short_links")
      .select("news_id")
      .where("short_id", "=", link.shortId)
      .executeTakeFirst();
    if (!holder) run.report.counts["short links"].created++;
    else if (holder.news_id === article.record.id) run.report.counts["short links"].unchanged++;
    else warn(run.report, "short links", link.shortId, `already used here by /news/${holder.news_id}: skipped`);
  }
}

async function writeArticles(
  run: Run,
  batch: PlannedArticle[],
  mediaOf: Map<string, string>,
  copied: Map<string, string>,
): Promise<void> {
  const local = (url: string) => mediaOf.get(url) ?? copied.get(url) ?? url;
  const outcomes = await writeWithEvents(run.db, async (trx) => {
    const results = [];
    for (const { record, links, fingerprint } of batch) {
      const before = await trx.selectFrom("short_links").select("short_id").where("news_id", "=", record.id).execute();
      const result = await importArticle(trx, importedArticleOf(record, links, local));
      await recordImported(trx, "article", record.id, fingerprint);
      results.push({ result, links, hadBefore: new Set(before.map((row) => row.short_id)) });
    }
    for (const [url, target] of copied) await recordImported(trx, "media", url, url, target);
    return results;
  });
  for (const [index, { result, links, hadBefore }] of outcomes.entries()) {
    const article = batch[index]!;
    run.report.counts[article.kind][result.outcome]++;
    for (const link of links) {
      if (result.refusedShortIds.includes(link.shortId))
        warn(
          run.report,
          "short links",
          link.shortId,
          `already used here by another article: /news/${article.record.id} keeps its own`,
        );
      else run.report.counts["short links"][hadBefore.has(link.shortId) ? "unchanged" : "created"]++;
    }
  }
  for (const [url, target] of copied) mediaOf.set(url, target);
}
