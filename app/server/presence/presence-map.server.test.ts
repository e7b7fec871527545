import { describe, expect, it } from "vitest";
import type { OutboxEvent, PresenceNotice } from "~/server/outbox/outbox.server";
import { createPresenceMap, PRESENCE_TTL_MS, type Editor } from "./presence-map.server";

let nextId = 1;
const notice = (articleId: string, presence: PresenceNotice): OutboxEvent => ({
  id: nextId++,
  kind: "editing-presence",
  articleId,
  before: null,
  after: null,
  presence,
  createdAt: new Date().toISOString(),
});

describe("the presence map", () => {
  it("names each editor once while a tab of theirs is open, forgets a tab on leaving or after its time by the site's clock, and tells listeners each change", () => {
    let now = Date.parse("2026-11-26T10:00:00Z");
    const presence = createPresenceMap({ now: () => new Date(now) });
    const heard: Editor[][] = [];
    presence.subscribe("a1", (editors) => heard.push(editors));

    presence.consume([
      notice("a1", { userId: "u1", name: "سلمى", tab: "tab-one-1", state: "open" }),
      notice("a1", { userId: "u1", name: "سلمى", tab: "tab-one-2", state: "open" }),
      notice("a2", { userId: "u2", name: "كريم", tab: "tab-two-1", state: "open" }),
    ]);
    expect(presence.editors("a1")).toEqual([{ id: "u1", name: "سلمى" }]);
    presence.consume([notice("a1", { userId: "u2", name: "كريم", tab: "tab-two-2", state: "open" })]);
    expect(presence.editors("a1").map((editor) => editor.name)).toEqual(["سلمى", "كريم"]);

    // One of two tabs left: still there. Kareem's heartbeat keeps him past the first tab's time.
    presence.consume([notice("a1", { userId: "u1", name: "سلمى", tab: "tab-one-1", state: "leave" })]);
    now += PRESENCE_TTL_MS - 1_000;
    presence.consume([notice("a1", { userId: "u2", name: "كريم", tab: "tab-two-2", state: "open" })]);
    now += 2_000;
    presence.sweep();
    expect(presence.editors("a1")).toEqual([{ id: "u2", name: "كريم" }]);
    now += PRESENCE_TTL_MS;
    presence.sweep();
    expect(presence.editors("a1")).toEqual([]);
    expect(heard.map((editors) => editors.map((editor) => editor.name))).toEqual([
      ["سلمى"],
      ["سلمى", "كريم"],
      ["كريم"],
      [],
    ]);
  });
});
