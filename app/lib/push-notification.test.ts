import { describe, expect, it } from "vitest";
import { alertNotification, alertTarget, pushAlertOf } from "./push-notification";

const payload = {
  alertId: 41,
  title: "عاجل: انقطاع الكهرباء عن طرابلس",
  body: "أعلنت مؤسسة كهرباء لبنان عن عطل في محطة دير عمار.",
  url: "/news/abc123/intiqa-alkahraba",
  image: "https://akhbar.example/media/cover-1200.webp",
  icon: "https://akhbar.example/icon-192.png",
  tag: "alert-41",
  open: "7.c2lnbmVkLWJ5LXRoZS1zaXRl",
};

describe("a push message as a notification", () => {
  it("is shown in Arabic, right to left, with the site's icon, the story's picture, its tag and where a click goes", () => {
    const alert = pushAlertOf(payload);
    expect(alert).toEqual(payload);
    expect(alertNotification(alert!)).toEqual({
      title: payload.title,
      options: {
        body: payload.body,
        dir: "rtl",
        lang: "ar",
        icon: payload.icon,
        image: payload.image,
        tag: payload.tag,
        data: { alertId: 41, url: payload.url, open: payload.open },
      },
    });
  });

  it("has no token to count its opening by when the message carries none", () => {
    const { open: _, ...untokened } = payload;
    expect(pushAlertOf(untokened)?.open).toBeNull();
    expect(pushAlertOf({ ...payload, open: 7 })).toBeNull();
  });

  it("has no picture when the story has none", () => {
    expect(alertNotification(pushAlertOf({ ...payload, image: null })!).options).not.toHaveProperty("image");
  });

  it("is nothing when the message is not an alert of ours", () => {
    for (const data of [
      null,
      "عاجل",
      { ...payload, alertId: "41" },
      { ...payload, url: "https://elsewhere.example/news/1" },
      { ...payload, title: "" },
      { ...payload, icon: undefined },
    ]) {
      expect(pushAlertOf(data)).toBeNull();
    }
  });
});

describe("a clicked notification", () => {
  const origin = "https://akhbar.example";

  it("opens its story on this site, and counts the opening with the delivery's token", () => {
    expect(alertTarget({ alertId: 41, url: payload.url, open: payload.open }, origin)).toEqual({
      url: `${origin}${payload.url}?utm_source=push`,
      opened: { alertId: 41, open: payload.open },
    });
    expect(alertTarget({ alertId: 41, url: payload.url, open: null }, origin)).toEqual({
      url: `${origin}${payload.url}?utm_source=push`,
      opened: null,
    });
  });

  it("goes nowhere else", () => {
    expect(alertTarget({ alertId: 41, url: "//evil.example/news/1" }, origin)).toBeNull();
    expect(alertTarget({ alertId: 41, url: "/dashboard" }, origin)).toBeNull();
    expect(alertTarget(undefined, origin)).toBeNull();
  });
});
