import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ISLANDS } from "./registry";

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the islands registry", () => {
  it("lists every island declared in app/, each name once, so the browser can hydrate it", () => {
    const declared = sources("app").flatMap((file) => [...readFileSync(file, "utf8").matchAll(/\bisland\("([^"]+)"/g)].map((m) => m[1]!));
    const registered = ISLANDS.map((island) => island.islandName);
    expect(new Set(registered).size).toBe(registered.length);
    expect([...registered].sort()).toEqual([...declared].sort());
  });
});
