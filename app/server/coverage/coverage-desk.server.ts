import { canManageCoverage } from "~/lib/permissions";
import type { CoverageView } from "~/lib/live-coverage";
import { liveDeskMessages } from "~/lib/newsroom-messages";
import type { CurrentUser } from "~/server/accounts/guards.server";
import { z } from "~/lib/zod";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { AppError } from "~/server/platform/app-error.server";
import { assertMayPost } from "./coverage-access.server";
import { readCoverage } from "./coverage-read.server";
import {
  closeCoverage,
  deleteLiveUpdate,
  editLiveUpdate,
  openCoverage,
  pinLiveUpdate,
  postLiveUpdate,
  type CoverageWriter,
} from "./coverage-write.server";

export type CoverageDesk = CoverageView & {
  title: string;
  status: string;
  category: string;
  mayManage: boolean;
  userId: string;
};

/** The live desk of story `articleId` for `user`: its coverage, its updates, and what `user` may do there. */
export async function readCoverageDesk(
  writer: CoverageWriter,
  user: CurrentUser,
  articleId: string,
): Promise<CoverageDesk> {
  await assertMayPost(writer.db, user, articleId);
  const story = await writer.db
    .selectFrom("news")
    .select(["title", "status", "category"])
    .where("id", "=", articleId)
    .executeTakeFirstOrThrow();
  return {
    ...(await readCoverage(writer.db, articleId)),
    title: story.title,
    status: story.status,
    category: story.category,
    mayManage: canManageCoverage(user),
    userId: user.id,
  };
}

/** A text the form sent (empty: none); what it may hold is the write's to check. */
const sentText = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === "string" && value !== "" ? value : undefined));
const ticked = sentText.transform((value) => value === "on");
// Ids are the UUIDs postLiveUpdate makes; anything else names no update (and never reaches a query).
const updateId = sentText.transform((value) => (value !== undefined && /^[0-9a-f-]{36}$/.test(value) ? value : ""));

/** The live desk's forms, by `intent` (http/read-form, COVERAGE_FORM_READING). */
export const coverageIntentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("open") }),
    z.object({ intent: z.literal("close"), summary: sentText }),
    z.object({
      intent: z.literal("post"),
      body: sentText,
      sendAlert: ticked,
      confirmAlert: ticked,
      submissionId: sentText,
    }),
    z.object({ intent: z.literal("edit"), updateId, body: sentText }),
    z.object({ intent: z.enum(["delete", "pin", "unpin"]), updateId }),
  ],
  { error: liveDeskMessages.unknownIntent },
);
export type CoverageIntent = z.output<typeof coverageIntentSchema>;

/** Only the intent can be wrong: an action the desk does not have. */
export const COVERAGE_FORM_READING: ReadFormOptions = {
  refusal: () => new AppError("bad-request", { message: liveDeskMessages.unknownIntent }),
};

/** One action of the live desk's forms. */
export async function runCoverageIntent(
  writer: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  action: CoverageIntent,
): Promise<{ done: string }> {
  switch (action.intent) {
    case "open":
      await openCoverage(writer, user, articleId);
      break;
    case "close":
      await closeCoverage(writer, user, articleId, { summary: action.summary });
      break;
    case "post":
      await postLiveUpdate(writer, user, articleId, {
        body: action.body,
        sendAlert: action.sendAlert,
        confirmAlert: action.confirmAlert,
        submissionId: action.submissionId,
      });
      break;
    case "edit":
      await editLiveUpdate(writer, user, articleId, action.updateId, { body: action.body });
      break;
    case "delete":
      await deleteLiveUpdate(writer, user, articleId, action.updateId);
      break;
    case "pin":
    case "unpin":
      await pinLiveUpdate(writer, user, articleId, action.updateId, action.intent === "pin");
      break;
  }
  return { done: action.intent };
}
