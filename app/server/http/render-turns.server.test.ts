import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { renderTurns, Turns } from "./render-turns.server";

describe("Turns", () => {
  it("hands out at most `limit` turns, then one per release in arrival order", async () => {
    const turns = new Turns(2);
    const order: string[] = [];
    const take = (name: string) => turns.take().then(() => order.push(name));
    await Promise.all([take("a"), take("b")]);
    const waiting = [take("c"), take("d")];
    expect(turns.queued).toBe(2);
    turns.release();
    await waiting[0];
    expect(order).toEqual(["a", "b", "c"]);
    turns.release();
    await waiting[1];
    expect(order).toEqual(["a", "b", "c", "d"]);
  });
});

describe("renderTurns", () => {
  it("lets a page render once an earlier one starts sending, and writes pass by", async () => {
    const turns = new Turns(1);
    const rendering: string[] = [];
    let finishFirst!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (finishFirst = resolve));
    const app = express();
    app.use(renderTurns(turns));
    app.all("/{*page}", async (req, res) => {
      rendering.push(`${req.method} ${req.path}`);
      if (req.path === "/first") await firstMayFinish;
      res.send(req.path);
    });
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = fetch(`${url}/first`).then((r) => r.text());
      await expect.poll(() => rendering).toEqual(["GET /first"]);
      const second = fetch(`${url}/second`).then((r) => r.text());
      await expect.poll(() => turns.queued).toBe(1);
      // A write never waits for a turn.
      expect(await (await fetch(`${url}/write`, { method: "POST" })).text()).toBe("/write");
      expect(rendering).toEqual(["GET /first", "POST /write"]);
      finishFirst();
      expect(await first).toBe("/first");
      expect(await second).toBe("/second");
      expect(rendering).toEqual(["GET /first", "POST /write", "GET /second"]);
      expect(turns.queued).toBe(0);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it("gives the turn back when the reader leaves before the page is sent", async () => {
    const turns = new Turns(1);
    const app = express();
    let started!: () => void;
    const startedRendering = new Promise<void>((resolve) => (started = resolve));
    app.use(renderTurns(turns));
    app.get("/hang", () => started());
    app.get("/next", (_req, res) => res.send("ok"));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const leaving = new AbortController();
      const hung = fetch(`${url}/hang`, { signal: leaving.signal }).catch(() => "left");
      await startedRendering;
      leaving.abort();
      expect(await hung).toBe("left");
      expect(await (await fetch(`${url}/next`)).text()).toBe("ok");
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
