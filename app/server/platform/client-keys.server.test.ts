import { describe, expect, it } from "vitest";
import { clientNetwork } from "./client-keys.server";

describe("the client an address stands for in a limit", () => {
  it("is an IPv6 address's /64: any address of it is the same client", () => {
    const same = [
      "2001:db8:1:2:3:4:5:6",
      "2001:db8:1:2::9",
      "2001:0db8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:db8:1:2::1.2.3.4",
      "2001:db8:1:2::9%eth0",
    ];
    expect(new Set(same.map(clientNetwork))).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
  });

  it("is an IPv4 address itself, also as IPv6 maps it", () => {
    expect(["203.0.113.5", "::ffff:203.0.113.5", "::ffff:cb00:7105"].map(clientNetwork)).toEqual([
      "203.0.113.5",
      "203.0.113.5",
      "203.0.113.5",
    ]);
    expect(clientNetwork("::ffff:203.0.113.6")).not.toBe(clientNetwork("::ffff:203.0.113.5"));
  });
});
