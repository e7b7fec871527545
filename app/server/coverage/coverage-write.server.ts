import { randomUUID } from "node:crypto";
import { LIVE_SUMMARY_MAX, LIVE_UPDATE_MAX_JSON } from "~/lib/live-coverage";
import { liveDeskMessages, pushMessages } from "~/lib/newsroom-messages";
import { canSendAlerts } from "~/lib/permissions";
import { alertLimitUnlessConfirmed, queueLiveUpdateAlert } from "~/server/news/push-alerts.server";
import { documentPlainText, isEmptyDocument, readRichDocument, type RichDocument } from "~/lib/rich-text/document";
import type { CurrentUser } from "~/server/accounts/guards.server";
import type { DB } from "~/server/db/db.server";
import { recordCoverageEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Clock } from "~/server/platform/clock.server";
import { assertMayChange, assertMayManage, assertMayPost } from "./coverage-access.server";
import { coverageOfRow, updateOfRow } from "./coverage-read.server";

/*
 * Every write of a live coverage (decision 040): checked, then the rows and one outbox event in one
 * transaction, so every process's readers hear of it and every page cache drops the story.
 */

/** `alertsPerHour`: the site's hourly limit on Web Push alerts (decision 037); none: no limit. */
export type CoverageWriter = { db: DB; clock: Clock; alertsPerHour?: () => Promise<number> };

const invalid = (field: string, message: string) =>
  new AppError("validation", { message, fields: { [field]: message } });

/** An update's text from the form: a structured document, not empty, short. */
export function readUpdateBody(json: string | undefined): RichDocument {
  if (!json) throw invalid("body", liveDeskMessages.updateEmpty);
  if (json.length > LIVE_UPDATE_MAX_JSON) throw invalid("body", liveDeskMessages.updateTooLong);
  const document = readRichDocument(json);
  if (typeof document === "string") throw invalid("body", liveDeskMessages.updateInvalid);
  if (isEmptyDocument(document)) throw invalid("body", liveDeskMessages.updateEmpty);
  return document;
}

function readSummary(summary: string | undefined): string | null {
  const text = (summary ?? "").trim();
  if (text.length > LIVE_SUMMARY_MAX) throw invalid("summary", liveDeskMessages.summaryTooLong);
  if (text.includes("\0")) throw invalid("summary", liveDeskMessages.updateInvalid);
  return text === "" ? null : text;
}

async function liveState(trx: DB, articleId: string) {
  return trx.selectFrom("live_coverage").selectAll().where("news_id", "=", articleId).executeTakeFirst();
}

/** Opens story `articleId` as live coverage, or reopens a closed one (editors). */
export async function openCoverage({ db, clock }: CoverageWriter, user: CurrentUser, articleId: string): Promise<void> {
  await assertMayManage(db, user, articleId);
  const now = clock.now().toISOString();
  await writeWithEvents(db, async (trx) => {
    const current = await liveState(trx, articleId);
    if (current?.state === "live") throw new AppError("conflict", { message: liveDeskMessages.alreadyOpen });
    if (current)
      await trx
        .updateTable("live_coverage")
        .set({ state: "live", ended_at: null })
        .where("news_id", "=", articleId)
        .execute();
    else
      await trx
        .insertInto("live_coverage")
        .values({ news_id: articleId, state: "live", summary: null, started_at: now, ended_at: null })
        .execute();
    const row = (await liveState(trx, articleId))!;
    await recordCoverageEvent(trx, articleId, { type: "opened", coverage: coverageOfRow(row) });
  });
}

/** Closes the live coverage of `articleId` with its summary; it stays as an archive (editors). */
export async function closeCoverage(
  { db, clock }: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  fields: { summary?: string },
): Promise<void> {
  await assertMayManage(db, user, articleId);
  const summary = readSummary(fields.summary);
  const now = clock.now().toISOString();
  await writeWithEvents(db, async (trx) => {
    const closed = await trx
      .updateTable("live_coverage")
      .set({ state: "closed", summary, ended_at: now })
      .where("news_id", "=", articleId)
      .where("state", "=", "live")
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) === 0) throw new AppError("conflict", { message: liveDeskMessages.notLive });
    await recordCoverageEvent(trx, articleId, {
      type: "closed",
      coverage: coverageOfRow((await liveState(trx, articleId))!),
    });
  });
}

/** A desk form's key: what the article form's submissionId is (lib/article-schema.ts). */
const SUBMISSION_ID = /^[A-Za-z0-9-]{8,64}$/;

/** The update a desk form with key `submissionId` already posted into story `articleId`, if any. */
async function updateOfSubmission(trx: DB, articleId: string, submissionId: string): Promise<string | undefined> {
  const row = await trx
    .selectFrom("live_updates")
    .select(["id", "news_id"])
    .where("submission_id", "=", submissionId)
    .executeTakeFirst();
  if (row && row.news_id !== articleId) throw new AppError("conflict", { message: liveDeskMessages.submissionUsed });
  return row?.id;
}

/**
 * Posts an update into the live coverage of `articleId` (editors, the story's author); its id. A form
 * posted again with the same `submissionId` (an answer lost on its way) returns the update it made and
 * posts nothing: the unique index on submission_id decides, as for articles. An alert past the hourly
 * limit refuses the post unless `confirmAlert`, as the article form does.
 */
export async function postLiveUpdate(
  { db, clock, alertsPerHour }: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  fields: { body?: string; sendAlert?: boolean; confirmAlert?: boolean; submissionId?: string },
): Promise<string> {
  await assertMayPost(db, user, articleId);
  const body = readUpdateBody(fields.body);
  if (fields.submissionId !== undefined && !SUBMISSION_ID.test(fields.submissionId))
    throw new AppError("validation", { message: liveDeskMessages.submissionInvalid });
  if (fields.sendAlert && !canSendAlerts(user)) throw invalid("sendAlert", pushMessages.sendAlertEditorsOnly);
  const perHour = fields.sendAlert
    ? await alertLimitUnlessConfirmed(alertsPerHour, fields.confirmAlert === true)
    : undefined;
  const now = clock.now().toISOString();
  const submissionId = fields.submissionId ?? null;
  return writeWithEvents(db, async (trx) => {
    const earlier = submissionId ? await updateOfSubmission(trx, articleId, submissionId) : undefined;
    if (earlier) return earlier;
    if ((await liveState(trx, articleId))?.state !== "live")
      throw new AppError("conflict", { message: liveDeskMessages.notLive });
    const id = randomUUID();
    const row = await trx
      .insertInto("live_updates")
      .values({
        id,
        news_id: articleId,
        body: JSON.stringify(body),
        text: documentPlainText(body),
        author_id: user.id,
        author_name: user.name,
        alert: fields.sendAlert ? 1 : 0,
        created_at: now,
        updated_at: now,
        submission_id: submissionId,
      })
      // Waits for a concurrent post of the same form to commit, then inserts nothing.
      .onConflict((oc) => oc.column("submission_id").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const concurrent = await updateOfSubmission(trx, articleId, submissionId!);
      if (!concurrent) throw new Error("a live update's submission conflicted, but its update is gone");
      return concurrent;
    }
    // Queued with the update: it goes out once, whichever process sends it (decision 037).
    if (fields.sendAlert) await queueLiveUpdateAlert(trx, articleId, id, new Date(now), perHour);
    await recordCoverageEvent(trx, articleId, { type: "posted", update: updateOfRow(row) });
    return id;
  });
}

/** Changes an update's text (editors any, the story's author their own). */
export async function editLiveUpdate(
  { db, clock }: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  updateId: string,
  fields: { body?: string },
): Promise<void> {
  await assertMayChange(db, user, articleId, updateId);
  const body = readUpdateBody(fields.body);
  await changeUpdate(db, articleId, updateId, {
    body: JSON.stringify(body),
    text: documentPlainText(body),
    updated_at: clock.now().toISOString(),
  });
}

/** Pins an update (a key update, shown first) or unpins it (editors). */
export async function pinLiveUpdate(
  { db }: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  updateId: string,
  pinned: boolean,
): Promise<void> {
  await assertMayManage(db, user, articleId);
  await assertMayChange(db, user, articleId, updateId);
  await changeUpdate(db, articleId, updateId, { pinned: pinned ? 1 : 0 });
}

async function changeUpdate(
  db: DB,
  articleId: string,
  updateId: string,
  set: { body?: string; text?: string; updated_at?: string; pinned?: number },
) {
  await writeWithEvents(db, async (trx) => {
    const row = await trx
      .updateTable("live_updates")
      .set(set)
      .where("id", "=", updateId)
      .where("news_id", "=", articleId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new AppError("not-found", { message: liveDeskMessages.updateNotFound });
    await recordCoverageEvent(trx, articleId, { type: "edited", update: updateOfRow(row) });
  });
}

/** Deletes an update (editors any, the story's author their own). */
export async function deleteLiveUpdate(
  { db }: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  updateId: string,
): Promise<void> {
  await assertMayChange(db, user, articleId, updateId);
  await writeWithEvents(db, async (trx) => {
    const deleted = await trx
      .deleteFrom("live_updates")
      .where("id", "=", updateId)
      .where("news_id", "=", articleId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0)
      throw new AppError("not-found", { message: liveDeskMessages.updateNotFound });
    await recordCoverageEvent(trx, articleId, { type: "deleted", id: updateId });
  });
}
