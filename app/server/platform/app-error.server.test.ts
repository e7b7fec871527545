import { describe, expect, it } from "vitest";
import { ERROR_CODES, errorOf, formMessagesOf } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { conflictMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { databaseBusy } from "~/server/db/faults.server";
import { authFailure } from "~/server/accounts/auth-errors.server";
import { errorResponse } from "~/server/http/error-response.server";
import { pageError } from "~/server/http/page-error.server";
import { storageErrorOf } from "~/server/media/storage-error.server";
import { AppError, ERROR_CATALOGUE, errorBody } from "./app-error.server";

const ARABIC = /^[^A-Za-z]*[\u0600-\u06FF][^A-Za-z]*$/;
const catalogueTexts = new Set<string>(
  [...Object.values(messages), ...Object.values(conflictMessages)].filter((text) => typeof text === "string"),
);

describe("the error catalogue", () => {
  it("gives every code a client or server error status and an Arabic message from the messages modules", () => {
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const error = new AppError(code);
      expect(error.status, code).toBeGreaterThanOrEqual(400);
      expect(error.status, code).toBeLessThan(600);
      expect(error.message, code).toMatch(ARABIC);
      expect(catalogueTexts.has(error.message), code).toBe(true);
    }
  });

  it("keeps the statuses clients rely on", () => {
    const statuses = Object.fromEntries(ERROR_CODES.map((code) => [code, new AppError(code).status]));
    expect(statuses).toEqual({
      "bad-request": 400,
      validation: 400,
      unauthorized: 401,
      forbidden: 403,
      "not-found": 404,
      "method-not-allowed": 405,
      conflict: 409,
      "edit-conflict": 409,
      "too-large": 413,
      "rate-limited": 429,
      internal: 500,
      unavailable: 503,
      "storage-full": 507,
    });
  });

  it("lets an error name a more precise message and messages by field, without changing its status", () => {
    const error = new AppError("validation", {
      message: newsroomMessages.titleRequired,
      fields: { title: newsroomMessages.titleRequired },
    });
    expect(error.status).toBe(400);
    expect(errorBody(error)).toEqual({
      error: {
        code: "validation",
        message: newsroomMessages.titleRequired,
        fields: { title: newsroomMessages.titleRequired },
      },
    });
    expect(errorBody(new AppError("forbidden"))).toEqual({ error: { code: "forbidden", message: messages.forbidden } });
  });
});

describe("one body for every refusal", () => {
  const refusals: AppError[] = [
    ...ERROR_CODES.map((code) => new AppError(code)),
    new AppError("too-large", { fields: { video: newsroomMessages.videoTooLarge } }),
    databaseBusy(),
    authFailure("too-many-requests", 60),
    authFailure("wrong-password"),
    storageErrorOf(Object.assign(new Error("no space"), { code: "ENOSPC" })),
    storageErrorOf(Object.assign(new Error("read-only"), { code: "EROFS" })),
  ];

  it("an API answer carries the error's status, its body, no-store and Retry-After when it has one", async () => {
    for (const error of refusals) {
      const response = errorResponse(error);
      expect(response.status, error.code).toBe(error.status);
      expect(response.headers.get("cache-control"), error.code).toBe("no-store");
      expect(response.headers.get("retry-after"), error.code).toBe(
        error.retryAfterSeconds === undefined ? null : String(error.retryAfterSeconds),
      );
      const body: unknown = await response.json();
      expect(body, error.code).toEqual(errorBody(error));
      expect(errorOf(body), error.code).toEqual({
        code: error.code,
        message: error.message,
        ...(error.reason ? { reason: error.reason } : {}),
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }
  });

  it("a page's refusal has the same body, for the error page to show its message", () => {
    const refusal = pageError(databaseBusy());
    expect(refusal.data).toEqual(errorBody(databaseBusy()));
    expect(refusal.init?.status).toBe(503);
    expect(new Headers(refusal.init?.headers).get("retry-after")).toBe("5");
  });

  it("the folded-in errors keep their statuses and words", () => {
    expect(databaseBusy()).toMatchObject({
      code: "unavailable",
      status: 503,
      message: messages.databaseBusy,
      retryAfterSeconds: 5,
    });
    expect(storageErrorOf(Object.assign(new Error(), { code: "ENOSPC" }))).toMatchObject({
      code: "storage-full",
      status: 507,
      message: messages.storageFull,
    });
    expect(storageErrorOf(Object.assign(new Error(), { code: "EROFS" }))).toMatchObject({
      code: "unavailable",
      status: 503,
      message: messages.storageUnavailable,
    });
    expect(authFailure("too-many-sign-ups", 30)).toMatchObject({
      code: "rate-limited",
      status: 429,
      retryAfterSeconds: 30,
    });
    expect(authFailure("unknown")).toMatchObject({ code: "bad-request", status: 400 });
    expect(errorBody(authFailure("wrong-password")).error.reason).toBe("wrong-password");
  });

  it("a form shows each field's message, or the whole message under `form`", () => {
    expect(
      formMessagesOf(
        errorBody(new AppError("validation", { fields: { title: newsroomMessages.titleRequired } })).error,
      ),
    ).toEqual({ title: newsroomMessages.titleRequired });
    expect(
      formMessagesOf(errorBody(new AppError("conflict", { message: newsroomMessages.alreadySubmitted })).error),
    ).toEqual({ form: newsroomMessages.alreadySubmitted });
    expect(errorOf({ id: "x" })).toBeNull();
    expect(errorOf({ error: "method" })).toBeNull();
  });
});
