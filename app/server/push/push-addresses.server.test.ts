import { describe, expect, it } from "vitest";
import { isPublicAddress, isSendableAddress, isSendableEndpoint } from "./push-addresses.server";

describe("where the server may send a push message", () => {
  it("to a push service on the internet: https, at a name or a public address", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/Q",
      "https://8.8.8.8/push",
      "https://[2001:4860:4860::8888]/push",
    ]) {
      expect(isSendableEndpoint(endpoint, false), endpoint).toBe(true);
    }
  });

  it("never to this machine or its network, over http, with credentials, or to anything not a URL", () => {
    const refused = [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://localhost/push",
      "https://news.localhost/push",
      "https://127.0.0.1/push",
      "https://127.8.9.1:8443/push",
      "https://0.0.0.0/push",
      "https://10.0.0.8/push",
      "https://172.20.1.1/push",
      "https://192.168.1.1/push",
      "https://100.64.0.1/push",
      "https://169.254.169.254/latest/meta-data",
      "https://224.0.0.1/push",
      "https://[::1]/push",
      "https://[::]/push",
      "https://[::ffff:127.0.0.1]/push",
      "https://[::ffff:10.0.0.1]/push",
      "https://[fd12:3456::1]/push",
      "https://[fe80::1]/push",
      "https://user:secret@fcm.googleapis.com/push",
      "ftp://fcm.googleapis.com/push",
      "javascript:alert(1)",
      "not a url",
    ];
    for (const endpoint of refused) expect(isSendableEndpoint(endpoint, false), endpoint).toBe(false);
  });

  it("to this machine, http or https, only when the tests allow it; never to the rest of its network", () => {
    for (const endpoint of [
      "http://127.0.0.1:4700/push/x",
      "https://localhost:4700/push/x",
      "http://[::1]:4700/push/x",
    ]) {
      expect(isSendableEndpoint(endpoint, true), endpoint).toBe(true);
      expect(isSendableEndpoint(endpoint, false), endpoint).toBe(false);
    }
    for (const endpoint of [
      "http://10.0.0.8/push",
      "https://169.254.169.254/x",
      "http://fcm.googleapis.com/fcm/send/abc",
    ])
      expect(isSendableEndpoint(endpoint, true), endpoint).toBe(false);
  });

  it("sends through NAT64 to a public IPv4 address, never to a private one behind it", () => {
    // On an IPv6-only host with DNS64, every push service on the internet resolves into 64:ff9b::/96.
    expect(
      ["64:ff9b::8.8.8.8", "64:ff9b::1.1.1.1", "64:ff9b::808:808"].filter((address) => !isPublicAddress(address)),
    ).toEqual([]);
    expect(
      ["64:ff9b::127.0.0.1", "64:ff9b::10.1.2.3", "64:ff9b::169.254.169.254", "64:ff9b::c0a8:101", "64:ff9b::"].filter(
        isPublicAddress,
      ),
    ).toEqual([]);
    expect(isSendableEndpoint("https://[64:ff9b::8.8.8.8]/push", false)).toBe(true);
    for (const endpoint of ["https://[64:ff9b::127.0.0.1]/push", "https://[64:ff9b::10.0.0.1]/push"])
      expect(isSendableEndpoint(endpoint, false), endpoint).toBe(false);
  });

  it("judges an IPv6 address that carries an IPv4 one by the IPv4 address: compatible, mapped, translated, 6to4", () => {
    expect(
      ["::ffff:8.8.8.8", "::ffff:0:808:808", "2002:808:808::1", "2002:101:101:1::1"].filter(
        (address) => !isPublicAddress(address),
      ),
    ).toEqual([]);
    const refused = [
      "::127.0.0.1",
      "::7f00:1",
      "::10.0.0.1",
      "::ffff:0:7f00:1",
      "::ffff:0:a00:1",
      "::ffff:127.0.0.1",
      "2002:7f00:1::1",
      "2002:a00:1::1",
      "2002:c0a8:101::1",
      "2002:a9fe:a9fe::1",
    ];
    expect(refused.filter(isPublicAddress)).toEqual([]);
    for (const endpoint of [
      "https://[::127.0.0.1]/push",
      "https://[::ffff:0:7f00:1]/push",
      "https://[2002:7f00:1::1]/push",
    ])
      expect(isSendableEndpoint(endpoint, false), endpoint).toBe(false);
  });

  it("knows a public address from the rest", () => {
    expect(["1.1.1.1", "8.8.4.4", "2606:4700::1111"].map(isPublicAddress)).toEqual([true, true, true]);
    expect(
      ["127.0.0.1", "10.1.1.1", "::1", "fe80::1", "::ffff:192.168.0.1", "localhost", ""].map(isPublicAddress),
    ).toEqual([false, false, false, false, false, false, false]);
  });

  it("connects to an address a name resolved to only when it is public, or this machine's with the tests' allowance", () => {
    const mine = ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"];
    expect(mine.filter((address) => isSendableAddress(address, false))).toEqual([]);
    expect(mine.filter((address) => !isSendableAddress(address, true))).toEqual([]);
    expect(["10.0.0.1", "::ffff:10.0.0.1", "fd00::1"].filter((address) => isSendableAddress(address, true))).toEqual(
      [],
    );
    expect(["8.8.8.8", "2606:4700::1111"].every((address) => isSendableAddress(address, false))).toBe(true);
  });
});
