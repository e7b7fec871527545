import { describe, expect, it } from "vitest";
import { articleSchema } from "./article-schema";
import { newsroomMessages } from "./newsroom-messages";
import { beirutWallTimeToIso, isoToBeirutWallTime, parsePublishAt } from "./publish-time";

describe("publish times", () => {
  it("reads the form's wall time in Beirut, winter (UTC+2) and summer (UTC+3)", () => {
    expect(beirutWallTimeToIso("2026-11-22T18:30")).toBe("2026-11-22T16:30:00.000Z");
    expect(beirutWallTimeToIso("2026-07-01T06:00")).toBe("2026-07-01T03:00:00.000Z");
  });

  it("writes a moment back as the input's value", () => {
    expect(isoToBeirutWallTime("2026-11-22T16:30:00.000Z")).toBe("2026-11-22T18:30");
    expect(isoToBeirutWallTime("2026-07-01T03:00:00.000Z")).toBe("2026-07-01T06:00");
  });

  it("takes the API's ISO 8601 with its zone", () => {
    expect(parsePublishAt("2026-11-22T18:30:00+02:00")).toBe("2026-11-22T16:30:00.000Z");
    expect(parsePublishAt("2026-11-22T16:30:00.000Z")).toBe("2026-11-22T16:30:00.000Z");
  });

  it("refuses what is not a real date and time", () => {
    const bad = [
      "",
      "tomorrow",
      "2026-13-40T99:99",
      "2026-11-22",
      "2026-11-22T18:30+2",
      "2026-02-31T10:00Z",
      "2026-01-01T25:00",
      "1700000000",
    ];
    for (const value of bad) expect(parsePublishAt(value), value).toBeNull();
  });
});

describe("the article schema's publish time", () => {
  const article = { title: "عنوان", content: "نص", category: "local" };
  const errorOf = (fields: Record<string, string>) => {
    const parsed = articleSchema.safeParse({ ...article, ...fields });
    return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
  };

  it("needs a real time still to come for a scheduled article", () => {
    expect(errorOf({ status: "scheduled" })).toEqual([newsroomMessages.publishAtRequired]);
    expect(errorOf({ status: "scheduled", publishAt: "غداً" })).toEqual([newsroomMessages.publishAtInvalid]);
    expect(errorOf({ status: "scheduled", publishAt: "2020-01-01T00:00:00Z" })).toEqual([
      newsroomMessages.publishAtPast,
    ]);
    expect(errorOf({ status: "scheduled", publishAt: new Date(Date.now() + 60_000).toISOString() })).toBeNull();
  });

  it("refuses a publish time with any other status, keeps none without one, and refuses a status no form may choose", () => {
    for (const status of ["draft", "review", "published"]) {
      expect(errorOf({ status, publishAt: "2030-01-01T00:00:00Z" }), status).toEqual([
        newsroomMessages.publishAtNotScheduled,
      ]);
      expect(articleSchema.parse({ ...article, status }).publishAt).toBeNull();
    }
    expect(errorOf({ status: "trashed" })).toEqual([newsroomMessages.statusInvalid]);
  });
});
