import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { createAuth, type Auth } from "./auth-instance.server";
import { getCurrentUser, requireAdmin, requireUser } from "./guards.server";
import type { DB } from "~/server/db/db.server";
import { getUserData } from "./user-data.server";
import { createAccount, setRole } from "./users.server";
import { createTempDatabase, type TempDatabase } from "../../../harness/temp-db";

let temp: TempDatabase;
let db: DB;
let auth: Auth;
let userCookie = "";

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

beforeAll(async () => {
  temp = await createTempDatabase();
  db = temp.db;
  auth = createAuth(db, { baseUrl: "http://localhost:3000", authSecret: "guards-secret-guards-secret-guards-secret" });
  await createAccount(auth, db, { email: "reader@example.com", username: "قارئ", password: "secret123", role: "user" });
  const response = await auth.api.signInEmail({
    body: { email: "reader@example.com", password: "secret123" },
    asResponse: true,
  });
  userCookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
});
afterAll(async () => {
  await temp?.cleanup();
});

const request = (cookie = "") =>
  new Request("http://localhost:3000/dashboard?tab=stats", { headers: cookie ? { cookie } : {} });

describe("guards", () => {
  it("requireUser sends a visitor to sign in with redirectTo", async () => {
    const error = await thrown(requireUser(auth, request()));
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(302);
    expect((error as Response).headers.get("location")).toBe(
      `/autenction?redirectTo=${encodeURIComponent("/dashboard?tab=stats")}`,
    );
  });

  it("sends a client navigation's data request to sign in with the page's address, not React Router's", async () => {
    const location = async (url: string) =>
      ((await thrown(requireUser(auth, new Request(url)))) as Response).headers.get("location");
    expect(await location("http://localhost:3000/dashboard/users.data?q=%D8%A3&_routes=routes%2Fdashboard-users")).toBe(
      `/autenction?redirectTo=${encodeURIComponent("/dashboard/users?q=%D8%A3")}`,
    );
    expect(await location("http://localhost:3000/_.data")).toBe(`/autenction?redirectTo=${encodeURIComponent("/")}`);
    expect(await location("http://localhost:3000/dashboard/_.data?_routes=routes%2Fdashboard")).toBe(
      `/autenction?redirectTo=${encodeURIComponent("/dashboard/")}`,
    );
  });

  it("looks the user up once for a reading request's loaders, and again on every call during a write", async () => {
    const rename = (name: string) =>
      db.updateTable("user").set({ name }).where("email", "=", "reader@example.com").execute();
    const reading = request(userCookie);
    expect((await getCurrentUser(auth, reading))?.name).toBe("قارئ");
    const writing = new Request("http://localhost:3000/dashboard/account", {
      method: "POST",
      headers: { cookie: userCookie },
    });
    expect((await getCurrentUser(auth, writing))?.name).toBe("قارئ");
    await rename("قارئ جديد");
    try {
      expect((await getCurrentUser(auth, reading))?.name).toBe("قارئ");
      expect((await getCurrentUser(auth, writing))?.name).toBe("قارئ جديد");
    } finally {
      await rename("قارئ");
    }
  });

  it("requireAdmin gives a signed-in user a 403, and lets an admin through", async () => {
    expect((await requireUser(auth, request(userCookie))).email).toBe("reader@example.com");
    const error = await thrown(requireAdmin(auth, request(userCookie)));
    expect(error).toMatchObject({ type: "DataWithResponseInit", init: { status: 403 } });
    await setRole(db, "reader@example.com", "admin");
    expect((await requireAdmin(auth, request(userCookie))).role).toBe("admin");
  });
});

describe("user data lookup", () => {
  it("says 'User ID is missing' and 'User not found' as docs/product.md#messages gives them", async () => {
    await expect(getUserData(db, undefined)).rejects.toThrow(newsroomMessages.userIdMissing);
    await expect(getUserData(db, "nope")).rejects.toThrow(newsroomMessages.userNotFound);
  });
});
