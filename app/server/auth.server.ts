import { data, redirect } from "react-router";
import { messages } from "~/lib/messages";
import type { Role } from "~/lib/constants";
import { createAuth, type Auth } from "./auth-instance.server";
import { audienceFor, type Audience } from "./audience.server";
import { config } from "./config.server";
import { db } from "./db/db.server";

export type CurrentUser = { id: string; name: string; email: string; role: Role };

let shared: Auth | undefined;

/** The process-wide better-auth instance, on the same database as everything else. */
export function auth(): Auth {
  shared ??= createAuth(db(), config());
  return shared;
}

const perRequest = new WeakMap<Request, Promise<CurrentUser | null>>();

async function lookUpUser(request: Request): Promise<CurrentUser | null> {
  if (!request.headers.get("cookie")) return null;
  const session = await auth().api.getSession({ headers: request.headers });
  if (!session) return null;
  const { id, name, email, role } = session.user;
  return { id, name, email, role: role === "admin" ? "admin" : "user" };
}

/** The signed-in user, looked up once per request however many loaders ask. */
export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  let user = perRequest.get(request);
  if (!user) {
    user = lookUpUser(request);
    perRequest.set(request, user);
  }
  return user;
}

/** What the request's reader may see: drafts only for admins. */
export async function audienceOf(request: Request): Promise<Audience> {
  return audienceFor(await getCurrentUser(request));
}

function signInUrl(request: Request): string {
  const url = new URL(request.url);
  return `/autenction?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`;
}

/** Signed-in users only; others are sent to sign in and brought back. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const user = await getCurrentUser(request);
  if (!user) throw redirect(signInUrl(request));
  return user;
}

/** Admins only: signed out goes to sign in, a signed-in user gets the 403 page. */
export async function requireAdmin(request: Request): Promise<CurrentUser> {
  const user = await requireUser(request);
  if (user.role !== "admin") throw data({ message: messages.forbidden }, 403);
  return user;
}
