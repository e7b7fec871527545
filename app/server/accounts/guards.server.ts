import { redirect } from "react-router";
import { isRole, type Role } from "~/lib/constants";
import { isAdmin, isEditor, isNewsroomMember, type Actor } from "~/lib/permissions";
import type { Auth } from "./auth-instance.server";
import { errorResponse } from "~/server/http/error-response.server";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";

export type CurrentUser = { id: string; name: string; email: string; role: Role };

const perRequest = new WeakMap<Request, Promise<CurrentUser | null>>();

async function lookUpUser(auth: Auth, request: Request): Promise<CurrentUser | null> {
  if (!request.headers.get("cookie")) return null;
  const session = await auth.api.getSession({ headers: request.headers });
  // A session made in the instant an admin disabled the account is refused too (decision 023).
  if (!session || session.user.disabledAt) return null;
  const { id, name, email, role } = session.user;
  return { id, name, email, role: isRole(role) ? role : "user" };
}

/**
 * The signed-in user, looked up once per reading request however many loaders ask (they share the
 * request, decision 029). A write may change who is signed in or what they are called, and its
 * page's loaders run after it on the same request: for a write, every call looks again.
 */
export function getCurrentUser(auth: Auth, request: Request): Promise<CurrentUser | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return lookUpUser(auth, request);
  let user = perRequest.get(request);
  if (!user) {
    user = lookUpUser(auth, request);
    perRequest.set(request, user);
  }
  return user;
}

/**
 * The page a request is for. Loaders get the raw request (future.v8_passThroughRequests), and a client
 * navigation's data request names its page React Router's way: `/dashboard.data?_routes=…`, and a path
 * ending in a slash `…/_.data` (`/_.data` for `/`: future.v8_trailingSlashAwareDataRequests).
 */
function pageOf(request: Request): string {
  const url = new URL(request.url);
  const pathname = url.pathname.endsWith("/_.data")
    ? url.pathname.slice(0, -"_.data".length)
    : url.pathname.replace(/\.data$/, "");
  if (url.searchParams.has("_routes")) url.searchParams.delete("_routes");
  return `${pathname}${url.search}`;
}

function signInUrl(request: Request): string {
  return `/autenction?redirectTo=${encodeURIComponent(pageOf(request))}`;
}

/** The JSON API answers refusals in JSON; pages send people to sign in or show the error page. */
function isApiRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

/** Signed-in users only; others are sent to sign in and brought back (the API answers 401). */
export async function requireUser(auth: Auth, request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(auth, request);
  if (user) return user;
  throw isApiRequest(request) ? errorResponse(new AppError("unauthorized")) : redirect(signInUrl(request));
}

/** Signed-in users the check accepts: signed out is treated as by requireUser, anyone else gets a 403. */
async function requireActor(auth: Auth, request: Request, allowed: (actor: Actor) => boolean): Promise<CurrentUser> {
  const user = await requireUser(auth, request);
  if (allowed(user)) return user;
  const refusal = new AppError("forbidden");
  throw isApiRequest(request) ? errorResponse(refusal) : pageError(refusal);
}

/** Authors, editors and admins: the dashboard and writing. */
export function requireNewsroomMember(auth: Auth, request: Request): Promise<CurrentUser> {
  return requireActor(auth, request, isNewsroomMember);
}

/** Editors and admins: publishing, reviewing, deleting any article. */
export function requireEditor(auth: Auth, request: Request): Promise<CurrentUser> {
  return requireActor(auth, request, isEditor);
}

/** Admins only: accounts and site settings. */
export function requireAdmin(auth: Auth, request: Request): Promise<CurrentUser> {
  return requireActor(auth, request, isAdmin);
}
