import { isNewsroomMember } from "~/lib/permissions";
import type { CurrentUser } from "~/server/accounts/guards.server";
import { visitMark, type VisitMark } from "./visit-marks.server";

/** The mark this visit to `target` leaves, or null for the newsroom (authors, editors, admins): their own views never count. */
export function visitOf(user: CurrentUser | null, secret: string, clientIp: string, target: string): VisitMark | null {
  if (isNewsroomMember(user)) return null;
  return visitMark(secret, clientIp, target);
}
