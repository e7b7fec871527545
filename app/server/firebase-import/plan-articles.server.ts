import {
  parseArticle,
  parseLegacyArticle,
  parseShortLink,
  titleKey,
  type FirebaseArticle,
  type FirebaseShortLink,
} from "./firebase-records.server";
import { mediaUrlsOf, missingMedia, warnMissingFile } from "./import-media.server";
import { warn } from "./import-report.server";
import { collection, inBatches, type Run } from "./import-run.server";
import { fingerprintOf, readImported } from "./import-state.server";

export type PlannedArticle = {
  kind: "articles" | "legacy news";
  record: FirebaseArticle;
  links: FirebaseShortLink[];
  fingerprint: string;
};

/** The export's articles, and which of them this run writes: new ones and those changed since the run that imported them. */
export type ArticlePlan = { total: number; toWrite: PlannedArticle[]; existing: Set<string> };

export async function planArticles(run: Run): Promise<ArticlePlan> {
  const planned = parsedArticles(run);
  attachShortLinks(run, planned);
  const ids = planned.map((article) => article.record.id);
  for (const article of planned) {
    // A file that was missing and is now in the bucket changes the fingerprint: the next run copies it.
    article.fingerprint = fingerprintOf({
      record: article.record,
      links: article.links,
      missing: missingMedia(run, mediaUrlsOf(article.record)),
    });
  }
  const imported = await readImported(run.db, "article", ids);
  const existing = new Set<string>();
  for (const batch of inBatches(ids, 500)) {
    for (const row of await run.db.selectFrom("news").select("id").where("id", "in", batch).execute())
      existing.add(row.id);
  }
  const toWrite: PlannedArticle[] = [];
  for (const article of planned) {
    if (!existing.has(article.record.id) && imported.has(article.record.id)) {
      warn(run.report, article.kind, article.record.id, "imported before and deleted here since: left out");
    } else if (imported.get(article.record.id)?.fingerprint === article.fingerprint) {
      run.report.counts[article.kind].unchanged++;
      run.report.counts["short links"].unchanged += article.links.length;
      for (const url of missingMedia(run, mediaUrlsOf(article.record))) warnMissingFile(run, article.record.id, url);
    } else toWrite.push(article);
  }
  return { total: planned.length, toWrite, existing };
}

/** `all-news` articles, then the legacy `news` items that are not already one of them (by id, or by title). */
function parsedArticles(run: Run): PlannedArticle[] {
  const planned: PlannedArticle[] = [];
  for (const [id, doc] of collection(run.sources, "all-news")) {
    const warnings: string[] = [];
    const parsed = parseArticle(id, doc, warnings);
    if (!parsed.ok) warn(run.report, "articles", id, `malformed, skipped: ${parsed.problem}`);
    else planned.push({ kind: "articles", record: parsed.value, links: [], fingerprint: "" });
    for (const warning of warnings) warn(run.report, "articles", id, warning, false);
  }
  const byTitle = new Map(planned.map((article) => [titleKey(article.record.title), article.record.id]));
  const ids = new Set(planned.map((article) => article.record.id));
  for (const [id, doc] of collection(run.sources, "news")) {
    const parsed = parseLegacyArticle(id, doc);
    if (!parsed.ok) {
      warn(run.report, "legacy news", id, `malformed, skipped: ${parsed.problem}`);
      continue;
    }
    const match = ids.has(id) ? id : byTitle.get(titleKey(parsed.value.title));
    if (match) run.report.matched.push({ legacyId: id, articleId: match });
    else planned.push({ kind: "legacy news", record: parsed.value, links: [], fingerprint: "" });
  }
  return planned;
}

function attachShortLinks(run: Run, planned: PlannedArticle[]): void {
  const byId = new Map(planned.map((article) => [article.record.id, article]));
  for (const [docId, doc] of collection(run.sources, "short-links")) {
    const parsed = parseShortLink(doc);
    if (!parsed.ok) warn(run.report, "short links", docId, `malformed, skipped: ${parsed.problem}`);
    else if (!byId.has(parsed.value.newsId))
      warn(
        run.report,
        "short links",
        docId,
        `points to /news/${parsed.value.newsId}, which the export does not hold: skipped`,
      );
    else byId.get(parsed.value.newsId)!.links.push(parsed.value);
  }
  for (const article of planned) {
    // One short link per article here: the oldest is kept, any other reported.
    article.links.sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0));
    for (const extra of article.links.slice(1))
      warn(
        run.report,
        "short links",
        extra.shortId,
        `a second short link of /news/${article.record.id}: skipped (${article.links[0]!.shortId} is kept)`,
      );
    article.links = article.links.slice(0, 1);
  }
}
