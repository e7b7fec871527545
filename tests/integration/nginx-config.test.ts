import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_SUBMISSION_BYTES } from "~/server/news/submission-limits.server";
import { DEPLOY_NGINX_CONF, siteConfigForTests } from "../../harness/nginx";

const template = readFileSync(DEPLOY_NGINX_CONF, "utf8");
const MB = 1024 * 1024;

describe("deploy/nginx.conf", () => {
  it("lets the largest article submission through, and not much more", () => {
    const size = /client_max_body_size (\d+)m;/.exec(template);
    expect(size, "client_max_body_size in megabytes").not.toBeNull();
    const bytes = Number(size![1]) * MB;
    expect(bytes).toBeGreaterThanOrEqual(MAX_SUBMISSION_BYTES);
    expect(bytes - MAX_SUBMISSION_BYTES).toBeLessThan(32 * MB);
  });

  it("is what the tests run, with only its marked parts replaced", () => {
    const tested = siteConfigForTests(template, 3725, ["127.0.0.1:4001", "127.0.0.1:4002"]);
    expect(tested).toContain("    server 127.0.0.1:4001;\n    server 127.0.0.1:4002;\n");
    expect(tested).toContain("listen 127.0.0.1:3725;");
    expect(tested, "the tests' listener says which instance answered").toContain(
      "add_header x-upstream $upstream_addr always;",
    );
    expect(tested).not.toMatch(/ssl|listen 80|127\.0\.0\.1:3000/);
    for (const line of [
      "proxy_buffering off;",
      "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
      "client_max_body_size",
    ]) {
      expect(tested).toContain(line);
    }
  });

  it("sends readers' views to each instance's views process, with the instances' workers as the backup", () => {
    const route =
      /location ~ \^\/api\/\(news\/\[\^\/\]\+\/visit\|site-visit\)\$ \{\n\s+proxy_pass http:\/\/akhbar_views;/;
    expect(template).toMatch(route);
    const tested = siteConfigForTests(
      template,
      3725,
      ["127.0.0.1:4001", "127.0.0.1:4002"],
      ["127.0.0.1:5001", "127.0.0.1:5002"],
    );
    expect(tested).toContain(
      "    server 127.0.0.1:5001;\n    server 127.0.0.1:5002;\n    server 127.0.0.1:4001 backup;\n    server 127.0.0.1:4002 backup;\n",
    );
    expect(siteConfigForTests(template, 3725, ["127.0.0.1:4001"]), "without views processes, to the instances").toMatch(
      /upstream akhbar_views \{\n\s+server 127\.0\.0\.1:4001;\n/,
    );
  });

  it("stops the tests when a marked part is missing", () => {
    expect(() => siteConfigForTests(template.replace("# ── end TLS ──", ""), 3725, ["127.0.0.1:4001"])).toThrow(
      /one "# ── TLS ──"/,
    );
  });
});
