import type { DB } from "~/server/db/db.server";
import { articleNotFound } from "~/server/news/ownership.server";
import type { ViewBuffer } from "./view-buffer.server";
import { isPublished } from "./visits.server";
import type { VisitBody } from "./visit-body.server";
import { viewInputOf, type Visitor } from "./visitor.server";

/** A browser's first view of a published article (`newsId`) or of the site (null), handed to the buffer; the newsroom's and crawlers' are dropped. */
export async function acceptView(
  db: DB,
  views: ViewBuffer,
  visitor: Visitor,
  newsId: string | null,
  body: VisitBody,
): Promise<void> {
  if (newsId !== null && !(await isPublished(db, newsId))) throw articleNotFound();
  const view = viewInputOf(visitor, newsId, body);
  if (view) views.add(view);
}
