import { describe, expect, it } from "vitest";
import { articleSchema } from "./article-schema";
import { messages } from "./messages";
import { parsePublishTime, wallClockOf } from "./publish-time";

describe("parsePublishTime", () => {
  it("reads ISO 8601 moments with their offset as UTC", () => {
    expect(parsePublishTime("2026-11-22T18:00:00Z")).toBe("2026-11-22T18:00:00.000Z");
    expect(parsePublishTime("2026-11-22T18:00:00+02:00")).toBe("2026-11-22T16:00:00.000Z");
  });

  it("reads a datetime-local value in Beirut time, summer and winter", () => {
    expect(parsePublishTime("2026-01-15T06:00")).toBe("2026-01-15T04:00:00.000Z");
    expect(parsePublishTime("2026-07-15T06:00")).toBe("2026-07-15T03:00:00.000Z");
    expect(wallClockOf("2026-07-15T03:00:00.000Z")).toBe("2026-07-15T06:00");
  });

  it("refuses what is not a real date and time", () => {
    for (const bad of ["tomorrow", "2026-02-31T10:00Z", "2026-13-01T10:00", "2026-01-01T25:00", "2026-01-01", "1700000000"]) {
      expect(parsePublishTime(bad), bad).toBeNull();
    }
  });
});

describe("the article schema's publish time", () => {
  const article = { title: "عنوان", content: "نص", category: "local" };
  const errorOf = (fields: Record<string, string>) => {
    const parsed = articleSchema.safeParse({ ...article, ...fields });
    return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
  };

  it("needs a time still to come for a scheduled article", () => {
    expect(errorOf({ status: "scheduled" })).toEqual([messages.publishAtRequired]);
    expect(errorOf({ status: "scheduled", publishAt: "2020-01-01T00:00:00Z" })).toEqual([messages.publishAtPast]);
    expect(errorOf({ status: "scheduled", publishAt: new Date(Date.now() + 60_000).toISOString() })).toBeNull();
  });

  it("refuses a bad date whatever the status, and a status no form may choose", () => {
    expect(errorOf({ status: "draft", publishAt: "غداً" })).toEqual([messages.publishAtInvalid]);
    expect(errorOf({ status: "trashed" })).toEqual([messages.statusInvalid]);
  });
});
