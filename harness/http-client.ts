import type { ErrorBody } from "~/lib/error-body";

/** A tiny HTTP client for tests against the real server: forms, cookies, no automatic redirects. */
export type Session = { cookie: string };
export const VISITOR: Session = { cookie: "" };

export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => c && !c.endsWith("="))
    .join("; ");
}

export async function post(
  url: string,
  fields: Record<string, string> | FormData = {},
  session: Session = VISITOR,
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = fields instanceof FormData ? fields : new URLSearchParams(fields);
  return fetch(url, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { ...(session.cookie ? { cookie: session.cookie } : {}), ...headers },
  });
}

/**
 * GET without following redirects, but one: an article's `/news/{id}` leads (301) to its readable address
 * `/news/{id}/{slug}` (decision 033), which tests written for `/news/{id}` mean to read. `canonicalRedirects.test.ts`
 * checks that redirect itself with `getExactly`.
 */
export async function get(url: string, session: Session = VISITOR): Promise<Response> {
  const response = await getExactly(url, session);
  const location = response.headers.get("location");
  const asked = new URL(url);
  if (
    response.status === 301 &&
    location &&
    /^\/news\/[^/]+$/.test(asked.pathname) &&
    location.startsWith(`${asked.pathname}/`)
  ) {
    return getExactly(new URL(location, url).href, session);
  }
  return response;
}

/** GET, no redirect followed at all. */
export async function getExactly(url: string, session: Session = VISITOR): Promise<Response> {
  return fetch(url, { redirect: "manual", headers: session.cookie ? { cookie: session.cookie } : {} });
}

export async function signUp(
  base: string,
  username: string,
  email: string,
  password: string,
  extra: Record<string, string> = {},
) {
  return post(`${base}/autenction`, { intent: "signup", username, email, password, redirectTo: "/", ...extra });
}

export async function signIn(base: string, email: string, password: string): Promise<Session> {
  const response = await post(`${base}/autenction`, { intent: "signin", email, password, redirectTo: "/" });
  if (response.status !== 302) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return { cookie: cookiesFrom(response) };
}

/** What the JSON API answers: the article's id and short id, an autosave's time, a save's new version, an uploaded image's URL, or an error. */
export type ApiAnswer = {
  id?: string;
  shortId?: string;
  savedAt?: string;
  url?: string;
  version?: number;
} & Partial<ErrorBody>;

/** Sends `body` to the JSON API at `url` as `session`: the status and the JSON answer. */
export async function callApi(
  url: string,
  method: "POST" | "PUT" | "DELETE",
  body: FormData | undefined,
  session: Session,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: ApiAnswer }> {
  const response = await fetch(url, { method, body, headers: { cookie: session.cookie, ...headers } });
  return { status: response.status, json: (await response.json()) as ApiAnswer };
}
