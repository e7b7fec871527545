import type { Role } from "./constants";
import type { ChosenStatus, NewsStatus } from "./news";

/**
 * Who may do what (docs/product.md#roles). The server enforces these on every route; the browser only uses them
 * to hide controls.
 */
export type Actor = { id: string; role: Role };
export type OwnedArticle = { authorId: string | null; status: NewsStatus };
/** What the role-only rules need: a page that knows the role but not the id may ask them too. */
type WithRole = Pick<Actor, "role">;

/** Writes articles: the dashboard and the edit page are theirs. */
export function isNewsroomMember(actor: WithRole | null): boolean {
  return actor?.role === "author" || isEditor(actor);
}

/** Publishes, schedules, unpublishes, reviews, deletes and restores any article. */
export function isEditor(actor: WithRole | null): boolean {
  return actor?.role === "editor" || actor?.role === "admin";
}

/** Sends Web Push alerts of any story and sees the alerts page (decision 037). */
export function canSendAlerts(actor: WithRole | null): boolean {
  return isEditor(actor);
}

/** Accounts and the site's own settings, and deleting for good. */
export function isAdmin(actor: WithRole | null): boolean {
  return actor?.role === "admin";
}

/** The statuses in which an author may still edit their own article. */
export const AUTHOR_EDITABLE_STATUSES = ["draft", "review"] as const satisfies readonly NewsStatus[];

/** Editors read every story outside the trash; an author their own, and published ones (docs/product.md#roles). */
export function canReadArticle(actor: Actor | null, article: OwnedArticle): boolean {
  if (article.status === "trashed") return isEditor(actor);
  return (
    isEditor(actor) || article.status === "published" || (actor?.role === "author" && article.authorId === actor.id)
  );
}

/** An author edits their own article while it is a draft or waits for review; an editor edits any that is not in the trash. */
export function canEditArticle(actor: Actor | null, article: OwnedArticle): boolean {
  if (article.status === "trashed") return false;
  if (isEditor(actor)) return true;
  return (
    actor?.role === "author" &&
    article.authorId === actor.id &&
    (AUTHOR_EDITABLE_STATUSES as readonly NewsStatus[]).includes(article.status)
  );
}

/**
 * canEditArticle as a condition a write carries, so an article published meanwhile is not changed by
 * an author whose check passed a moment before: null for editors (any article), else the author's own.
 */
export function editCondition(actor: Actor): { authorId: string; statuses: readonly NewsStatus[] } | null {
  return isEditor(actor) ? null : { authorId: actor.id, statuses: AUTHOR_EDITABLE_STATUSES };
}

/** The statuses an actor may give an article from the form or the API. */
export function statusesFor(actor: Actor | null): readonly ChosenStatus[] {
  if (isEditor(actor)) return ["draft", "review", "scheduled", "published"];
  if (isNewsroomMember(actor)) return ["draft", "review"];
  return [];
}

/** Opens and closes a story's live coverage, pins updates, changes anyone's (decision 040). */
export function canManageCoverage(actor: WithRole | null): boolean {
  return isEditor(actor);
}

/** Posts updates into a story's live coverage: editors, and the story's own author (decision 040). */
export function canPostLiveUpdate(actor: Actor | null, article: OwnedArticle): boolean {
  if (article.status === "trashed") return false;
  return isEditor(actor) || (actor?.role === "author" && article.authorId === actor.id);
}

/** Edits or deletes an update: editors any, the story's author their own. */
export function canChangeLiveUpdate(actor: Actor | null, article: OwnedArticle, update: { authorId: string }): boolean {
  return isEditor(actor) || (canPostLiveUpdate(actor, article) && update.authorId === actor?.id);
}
/** Sees every story's readers (decision 039); an author sees only their own. */
export function seesAllStats(actor: WithRole | null): boolean {
  return isEditor(actor);
}
