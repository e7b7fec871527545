import { mkdirSync } from "node:fs";
import { test as base, expect, type Page } from "@playwright/test";
import type { Role } from "../../app/lib/constants";
import { messages } from "../../app/lib/messages";
import { bodyEditor, consoleErrorsSoFar, createMember, hydrated, sessionState, type StorageState } from "./support";
import { DEMO_SITES, FILES_DIR, startServers, type E2EServer } from "./servers";

/** Who a describe's pages are signed in as: a newsroom member of `site`, made once per worker. */
export type NewsroomMember = { site: E2EServer; role: Role; name: string; emailPrefix: string };

type TestFixtures = {
  /** Set with `test.use({ signedInAs })`: every page of the describe opens signed in as this member. */
  signedInAs: NewsroomMember | null;
  /** The page, signed in as `signedInAs`, on the dashboard with the new article's form hydrated, its opening clean in the console. */
  editorPage: Page;
};
type WorkerFixtures = {
  servers: void;
  /** Each member's session, by memberKey: one account per member and worker, as a describe's beforeAll made. */
  memberSessions: Map<string, Promise<StorageState>>;
};

const memberKey = ({ site, role, name, emailPrefix }: NewsroomMember) => [site.name, role, emailPrefix, name].join(" ");

/**
 * Playwright's `test`, with this worker's demo servers (servers.ts) started before its first test and
 * stopped after its last: every spec imports `test` and `expect` from here.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  servers: [
    async ({}, use) => {
      mkdirSync(FILES_DIR, { recursive: true });
      const stop = await startServers(DEMO_SITES);
      try {
        await use();
      } finally {
        await stop();
      }
    },
    // Starting servers on a busy machine can take most of a minute.
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
  memberSessions: [async ({}, use) => use(new Map()), { scope: "worker" }],
  signedInAs: [null, { option: true }],
  storageState: [
    async ({ storageState, signedInAs, memberSessions }, use) => {
      if (!signedInAs) return use(storageState);
      const key = memberKey(signedInAs);
      let session = memberSessions.get(key);
      if (!session) {
        const { site, role, name, emailPrefix } = signedInAs;
        session = createMember(role, name, site, emailPrefix).then((member) => sessionState(member, site));
        memberSessions.set(key, session);
      }
      await use(await session);
    },
    // Making the account is the describe's set-up, as a beforeAll was: outside the test's own time.
    { scope: "test", timeout: 30_000 },
  ],
  editorPage: async ({ page, signedInAs }, use) => {
    if (!signedInAs) throw new Error("editorPage signs in as the member of test.use({ signedInAs })");
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: messages.dashboard })).toBeVisible();
    await hydrated(page);
    await expect(bodyEditor(page)).toBeVisible();
    expect(await consoleErrorsSoFar(page), "the article form opened with console errors").toEqual([]);
    await use(page);
  },
});

export { expect };
