import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IDLE_ISLANDS, ISLANDS } from "./registry";

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the islands registry", () => {
  it("lists every island declared in app/ by its name, so the browser can load and hydrate it", async () => {
    const declared = sources("app").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bisland\("([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(ISLANDS).sort()).toEqual([...declared].sort());
    for (const [name, load] of Object.entries(ISLANDS)) expect((await load()).islandName, name).toBe(name);
    for (const name of IDLE_ISLANDS) expect(ISLANDS, name).toHaveProperty([name]);
  });
});
