import { expect, it } from "vitest";
import { isAllowedOrigin } from "./origin.server";

const site = "https://akhbar.example";

it("lets safe methods through and checks the origin of every other", () => {
  expect(isAllowedOrigin("GET", { origin: "https://evil.example" }, site)).toBe(true);
  expect(isAllowedOrigin("POST", { origin: site }, site)).toBe(true);
  expect(isAllowedOrigin("POST", { origin: "https://evil.example" }, site)).toBe(false);
  expect(isAllowedOrigin("DELETE", { origin: "null" }, site)).toBe(false);
  expect(isAllowedOrigin("POST", { "sec-fetch-site": "cross-site" }, site)).toBe(false);
  expect(isAllowedOrigin("POST", { "sec-fetch-site": "same-site" }, site)).toBe(false);
  expect(isAllowedOrigin("POST", { "sec-fetch-site": "same-origin" }, site)).toBe(true);
  expect(isAllowedOrigin("POST", {}, site)).toBe(true);
});
