import { canManageCoverage } from "~/lib/permissions";
import type { CoverageView } from "~/lib/live-coverage";
import { liveDeskMessages } from "~/lib/newsroom-messages";
import type { CurrentUser } from "~/server/accounts/guards.server";
import { formText } from "~/server/http/form.server";
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

/** One action of the live desk's forms, named by `intent`. */
export async function runCoverageIntent(
  writer: CoverageWriter,
  user: CurrentUser,
  articleId: string,
  form: FormData,
): Promise<{ done: string }> {
  const intent = formText(form, "intent");
  // Ids are the UUIDs postLiveUpdate makes; anything else names no update (and never reaches a query).
  const updateId = /^[0-9a-f-]{36}$/.test(formText(form, "updateId") ?? "") ? formText(form, "updateId")! : "";
  switch (intent) {
    case "open":
      await openCoverage(writer, user, articleId);
      break;
    case "close":
      await closeCoverage(writer, user, articleId, { summary: formText(form, "summary") });
      break;
    case "post":
      await postLiveUpdate(writer, user, articleId, {
        body: formText(form, "body"),
        sendAlert: formText(form, "sendAlert") === "on",
        confirmAlert: formText(form, "confirmAlert") === "on",
        submissionId: formText(form, "submissionId"),
      });
      break;
    case "edit":
      await editLiveUpdate(writer, user, articleId, updateId, { body: formText(form, "body") });
      break;
    case "delete":
      await deleteLiveUpdate(writer, user, articleId, updateId);
      break;
    case "pin":
    case "unpin":
      await pinLiveUpdate(writer, user, articleId, updateId, intent === "pin");
      break;
    default:
      throw new AppError("bad-request", { message: liveDeskMessages.unknownIntent });
  }
  return { done: intent };
}
