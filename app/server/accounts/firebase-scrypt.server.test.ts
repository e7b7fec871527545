import { describe, expect, it } from "vitest";
import {
  encodeFirebaseHash,
  firebaseScryptHash,
  isFirebaseHash,
  verifyFirebaseHash,
  type FirebaseHashConfig,
} from "./firebase-scrypt.server";

// The worked example of github.com/firebase/scrypt's README.
const vector = {
  config: {
    signerKey: Buffer.from(
      "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
      "base64",
    ),
    saltSeparator: Buffer.from("Bw==", "base64"),
    rounds: 8,
    memCost: 14,
  } satisfies FirebaseHashConfig,
  salt: Buffer.from("42xEC+ixf3L2lw==", "base64"),
  password: "user1password",
  hash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

describe("Firebase's modified scrypt", () => {
  it("gives the published test vector's hash", async () => {
    const hash = await firebaseScryptHash(vector.password, vector.salt, vector.config);
    expect(hash.toString("base64")).toBe(vector.hash);
  });

  it("accepts the password of a stored hash and refuses any other", async () => {
    const stored = encodeFirebaseHash(Buffer.from(vector.hash, "base64"), vector.salt, vector.config);
    expect(isFirebaseHash(stored)).toBe(true);
    expect(await verifyFirebaseHash(stored, vector.password)).toBe(true);
    expect(await verifyFirebaseHash(stored, "user1password ")).toBe(false);
    expect(await verifyFirebaseHash(stored, "")).toBe(false);
  });

  it("refuses a stored value it cannot read instead of throwing", async () => {
    expect(await verifyFirebaseHash("firebase-scrypt$8$99$Bw==$a$b$c", vector.password)).toBe(false);
    expect(await verifyFirebaseHash("firebase-scrypt$x", vector.password)).toBe(false);
    expect(isFirebaseHash("0123abcd:deadbeef")).toBe(false);
  });
});
