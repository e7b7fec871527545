import type { IncomingMessage } from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import type { TrustProxy } from "~/server/platform/config.server";
import { clientAddress, proxyTrust } from "./client-address.server";

/** A request from `socket` that names `forwarded` in X-Forwarded-For. */
const from = (socket: string, forwarded: string) =>
  ({
    socket: { remoteAddress: socket },
    connection: { remoteAddress: socket },
    headers: { "x-forwarded-for": forwarded },
  }) as unknown as IncomingMessage;

describe("TRUST_PROXY read before Express", () => {
  const settings: TrustProxy[] = [false, 1, 2, ["loopback"], ["127.0.0.1", "10.0.0.0/8"]];
  const requests = [
    from("127.0.0.1", "198.51.100.7"),
    from("127.0.0.1", "203.0.113.5, 10.0.0.9"),
    from("192.0.2.44", "198.51.100.7"),
    from("10.1.2.3", "203.0.113.5, 10.0.0.9"),
  ];

  it("names the client Express names, for every form of the setting", () => {
    for (const setting of settings) {
      const expressTrust = express().set("trust proxy", setting).get("trust proxy fn") as (
        address: string,
        hop: number,
      ) => boolean;
      const ours = proxyTrust(setting);
      for (const address of ["127.0.0.1", "10.0.0.9", "192.0.2.44", "::1"]) {
        for (const hop of [0, 1, 2, 3])
          expect([setting, address, hop, ours(address, hop)]).toEqual([
            setting,
            address,
            hop,
            expressTrust(address, hop),
          ]);
      }
    }
  });

  it("takes the socket's address when no proxy is trusted, and the last untrusted hop otherwise", () => {
    expect(requests.map(clientAddress(false))).toEqual(["127.0.0.1", "127.0.0.1", "192.0.2.44", "10.1.2.3"]);
    expect(requests.map(clientAddress(["loopback"]))).toEqual(["198.51.100.7", "10.0.0.9", "192.0.2.44", "10.1.2.3"]);
    expect(requests.map(clientAddress(["127.0.0.1", "10.0.0.0/8"]))).toEqual([
      "198.51.100.7",
      "203.0.113.5",
      "192.0.2.44",
      "203.0.113.5",
    ]);
  });
});
