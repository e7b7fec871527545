import { seesAllStats } from "~/lib/permissions";
import type { CurrentUser } from "~/server/accounts/guards.server";
import type { StatsScope } from "./read-stats.server";

/** Editors and admins see every story; an author their own (decision 039). */
export function statsScopeOf(user: CurrentUser): StatsScope {
  return { authorId: seesAllStats(user) ? null : user.id };
}
