import { getCurrentUser } from "~/server/accounts/guards.server";
import { config } from "~/server/platform/config.server";
import { visitMark, type VisitMark } from "./visit-marks.server";

/** The mark this request's visit to `target` leaves, or null for an admin: their own views never count. */
export async function visitOf(request: Request, clientIp: string, target: string): Promise<VisitMark | null> {
  const user = await getCurrentUser(request);
  if (user?.role === "admin") return null;
  return visitMark(config().authSecret, clientIp, target);
}
