import { expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { parseConfig } from "~/server/platform/config.server";
import { crossSitePage, crossSiteReason, crossSiteRefusal, forwardedElsewhere } from "./origin.server";

const site = ["https://akhbar.example"];
const allowed = (method: string, headers: { origin?: string; "sec-fetch-site"?: string }, origins = site) =>
  crossSiteRefusal(method, headers, origins) === null;

it("lets safe methods through and checks the origin of every other", () => {
  expect(allowed("GET", { origin: "https://evil.example" })).toBe(true);
  expect(allowed("POST", { origin: site[0] })).toBe(true);
  expect(allowed("POST", { origin: "https://evil.example" })).toBe(false);
  expect(allowed("DELETE", { origin: "null" })).toBe(false);
  expect(allowed("POST", { "sec-fetch-site": "cross-site" })).toBe(false);
  expect(allowed("POST", { "sec-fetch-site": "same-site" })).toBe(false);
  expect(allowed("POST", { "sec-fetch-site": "same-origin" })).toBe(true);
  expect(allowed("POST", {})).toBe(true);
});

it("accepts the loopback spellings of the default address only when BASE_URL is not set", () => {
  const byDefault = parseConfig({ AUTH_SECRET: "s".repeat(32) }).siteOrigins;
  for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])
    expect(allowed("POST", { origin }, byDefault)).toBe(true);
  expect(allowed("POST", { origin: "http://127.0.0.1:4000" }, byDefault)).toBe(false);
  expect(allowed("POST", { origin: "http://192.168.1.5:3000" }, byDefault)).toBe(false);
  const configured = parseConfig({ AUTH_SECRET: "s".repeat(32), BASE_URL: "http://localhost:3000" }).siteOrigins;
  expect(allowed("POST", { origin: "http://127.0.0.1:3000" }, configured)).toBe(false);
});

it("says which address the site has and which the page was opened from", () => {
  const refusal = crossSiteRefusal("POST", { origin: "http://192.168.1.5:3000" }, ["http://localhost:3000"]);
  expect(refusal).toEqual({
    siteOrigin: "http://localhost:3000",
    pageOrigin: "http://192.168.1.5:3000",
    otherAddress: false,
  });
  if (!refusal) return;
  expect(crossSiteReason(refusal)).toContain("http://localhost:3000");
  expect(crossSiteReason(refusal)).toContain("http://192.168.1.5:3000");
  const page = crossSitePage({
    siteOrigin: "http://localhost:3000",
    pageOrigin: "https://<evil>.example",
    otherAddress: false,
  });
  expect(page).toContain(`<title>${messages.crossSiteTitle}`);
  expect(page).toContain("https://&#60;evil&#62;.example");
  expect(page).not.toContain("<evil>");
});

it("tells a page of this server at another of its addresses from another site", () => {
  const site = ["http://localhost:3000"];
  const otherAddress = crossSiteRefusal("POST", { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }, site);
  expect(otherAddress).toMatchObject({ otherAddress: true });
  expect(crossSitePage(otherAddress!)).toContain(`<title>${messages.otherAddressTitle}`);
  expect(crossSiteReason(otherAddress!)).toMatch(new RegExp(`^${messages.otherAddressRequest}.*http://localhost:3000`));
  expect(crossSiteRefusal("POST", { origin: "https://evil.example", host: "127.0.0.1:3000" }, site)).toMatchObject({
    otherAddress: false,
  });
});

it("tells a write sent to another origin than its page's, as React Router would refuse it", () => {
  expect(forwardedElsewhere("POST", "https://akhbar.example", "https://akhbar.example")).toBe(false);
  expect(forwardedElsewhere("POST", "https://akhbar.example", "https://akhbar.example:443")).toBe(false);
  expect(forwardedElsewhere("POST", "https://akhbar.example", "http://akhbar-upstream:3000")).toBe(true);
  expect(
    forwardedElsewhere("POST", "https://akhbar.example", "http://akhbar.example"),
    "X-Forwarded-Proto not passed on",
  ).toBe(true);
  expect(forwardedElsewhere("GET", "https://akhbar.example", "http://akhbar-upstream:3000")).toBe(false);
  expect(
    forwardedElsewhere("POST", undefined, "http://akhbar-upstream:3000"),
    "no Origin: a client that is no browser",
  ).toBe(false);
});
