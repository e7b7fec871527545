import type { CurrentUser } from "~/server/accounts/guards.server";
import { visitMark, type VisitMark } from "./visit-marks.server";

/** The mark this visit to `target` leaves, or null for an admin: their own views never count. */
export function visitOf(user: CurrentUser | null, secret: string, clientIp: string, target: string): VisitMark | null {
  if (user?.role === "admin") return null;
  return visitMark(secret, clientIp, target);
}
