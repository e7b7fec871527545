import { describe, expect, it } from "vitest";
import { isPublicAddress, isSendableEndpoint } from "./push-addresses.server";

describe("where the server may send a push message", () => {
  it("to a push service on the internet: https, at a name or a public address", () => {
    for (const endpoint of ["https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services.mozilla.com/wpush/v2/x", "https://web.push.apple.com/Q", "https://8.8.8.8/push", "https://[2001:4860:4860::8888]/push"]) {
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
    for (const endpoint of ["http://127.0.0.1:4700/push/x", "https://localhost:4700/push/x", "http://[::1]:4700/push/x"]) {
      expect(isSendableEndpoint(endpoint, true), endpoint).toBe(true);
      expect(isSendableEndpoint(endpoint, false), endpoint).toBe(false);
    }
    for (const endpoint of ["http://10.0.0.8/push", "https://169.254.169.254/x", "http://fcm.googleapis.com/fcm/send/abc"]) expect(isSendableEndpoint(endpoint, true), endpoint).toBe(false);
  });

  it("knows a public address from the rest", () => {
    expect(["1.1.1.1", "8.8.4.4", "2606:4700::1111"].map(isPublicAddress)).toEqual([true, true, true]);
    expect(["127.0.0.1", "10.1.1.1", "::1", "fe80::1", "::ffff:192.168.0.1", "localhost", ""].map(isPublicAddress)).toEqual([false, false, false, false, false, false, false]);
  });
});
