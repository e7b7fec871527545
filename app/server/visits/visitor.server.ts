import { isNewsroomMember } from "~/lib/permissions";
import { deviceOf, isCrawler, sourceOf } from "~/lib/reader-classes";
import type { CurrentUser } from "~/server/accounts/guards.server";
import type { ViewInput } from "./view.server";
import type { VisitBody } from "./visit-body.server";

export type Visitor = { user: CurrentUser | null; address: string; userAgent: string; siteHost: string; at: Date };

/** What a reader's view will count as, or null when it never counts: the newsroom's own views (authors, editors, admins) and crawlers'. */
export function viewInputOf(visitor: Visitor, newsId: string | null, body: VisitBody): ViewInput | null {
  if (isNewsroomMember(visitor.user) || isCrawler(visitor.userAgent)) return null;
  return {
    newsId,
    reader: body.reader,
    address: visitor.address,
    source: sourceOf(body, visitor.siteHost),
    device: deviceOf(visitor.userAgent),
    at: visitor.at,
  };
}
