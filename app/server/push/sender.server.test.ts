import { describe, expect, it } from "vitest";
import { alertOfWrite } from "~/server/news/push-alerts.server";
import { outcomeOf, retryAfterMs } from "./outcomes.server";
import { topicOf, vapidSubject } from "./alert-messages.server";

const now = new Date("2026-11-26T10:00:00Z");

describe("a push service's answer", () => {
  it("counts 2xx delivered, 404 and 410 removed, other 4xx failed", () => {
    expect(outcomeOf(201, null, 0, now)).toBe("delivered");
    expect(outcomeOf(404, null, 0, now)).toBe("removed");
    expect(outcomeOf(410, null, 0, now)).toBe("removed");
    expect(outcomeOf(400, null, 0, now)).toBe("failed");
    expect(outcomeOf(413, null, 0, now)).toBe("failed");
  });

  it("retries 429 and 5xx at the later of Retry-After and the back-off", () => {
    expect(outcomeOf(429, "120", 0, now)).toEqual({ retryAt: new Date(now.getTime() + 120_000) });
    expect(outcomeOf(503, null, 0, now)).toEqual({ retryAt: new Date(now.getTime() + 10_000) });
    expect(outcomeOf(500, "1", 2, now)).toEqual({ retryAt: new Date(now.getTime() + 40_000) });
    expect(outcomeOf(429, "Thu, 26 Nov 2026 10:05:00 GMT", 0, now)).toEqual({
      retryAt: new Date(now.getTime() + 300_000),
    });
  });

  it("reads Retry-After as seconds or a date, nothing else", () => {
    expect(retryAfterMs("30", now)).toBe(30_000);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe("headers and subject", () => {
  it("makes a Topic of at most 32 URL-safe characters", () => {
    expect(topicOf("breaking")).toBe("akhbar-breaking");
    expect(topicOf("a".repeat(40) + "/é")).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it("signs as the contact email, else an https BASE_URL, else a mailto at its host", () => {
    expect(vapidSubject("desk@example.org", "http://127.0.0.1:3000")).toBe("mailto:desk@example.org");
    expect(vapidSubject("", "https://news.example.org")).toBe("https://news.example.org");
    expect(vapidSubject("", "http://localhost:3000")).toBe("mailto:webmaster@localhost");
  });
});

describe("which writes make an alert", () => {
  it("a breaking story's first publication, or an editor's request on a published story", () => {
    expect(alertOfWrite({ category: "breaking", wasPublished: false, published: true, sendAlert: false })).toBe(
      "breaking",
    );
    expect(alertOfWrite({ category: "breaking", wasPublished: true, published: true, sendAlert: false })).toBeNull();
    expect(alertOfWrite({ category: "local", wasPublished: false, published: true, sendAlert: false })).toBeNull();
    expect(alertOfWrite({ category: "local", wasPublished: true, published: true, sendAlert: true })).toBe("manual");
    expect(alertOfWrite({ category: "breaking", wasPublished: false, published: false, sendAlert: true })).toBeNull();
  });
});
