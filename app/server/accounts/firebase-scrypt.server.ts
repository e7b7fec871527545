import { createCipheriv, scrypt, timingSafeEqual, type BinaryLike, type ScryptOptions } from "node:crypto";

/*
 * Firebase Auth's modified scrypt (github.com/firebase/scrypt): scrypt of the password with the
 * account's salt followed by the project's salt separator (N = 2^mem_cost, r = rounds, p = 1) gives a
 * 32-byte key; AES-256-CTR with that key and a zero IV encrypts the project's signer key; the result is
 * the account's password hash.
 */

/** A project's password hash parameters, as the Firebase console shows them. */
export type FirebaseHashConfig = { signerKey: Buffer; saltSeparator: Buffer; rounds: number; memCost: number };

function scryptAsync(password: BinaryLike, salt: BinaryLike, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function firebaseScryptHash(password: string, salt: Buffer, config: FirebaseHashConfig): Promise<Buffer> {
  const N = 2 ** config.memCost;
  const key = await scryptAsync(Buffer.from(password, "utf8"), Buffer.concat([salt, config.saltSeparator]), 32, {
    N,
    r: config.rounds,
    p: 1,
    maxmem: 128 * N * config.rounds * 2,
  });
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(config.signerKey), cipher.final()]);
}

const PREFIX = "firebase-scrypt";

/**
 * An imported account's password, as stored in `account.password` until its first sign-in: everything
 * needed to check it, and a prefix better-auth's own `salt:key` format never starts with.
 */
export function encodeFirebaseHash(hash: Buffer, salt: Buffer, config: FirebaseHashConfig): string {
  const parts = [
    config.rounds,
    config.memCost,
    config.saltSeparator.toString("base64"),
    config.signerKey.toString("base64"),
    salt.toString("base64"),
    hash.toString("base64"),
  ];
  return [PREFIX, ...parts].join("$");
}

export function isFirebaseHash(stored: string): boolean {
  return stored.startsWith(`${PREFIX}$`);
}

function decodeFirebaseHash(stored: string): { config: FirebaseHashConfig; salt: Buffer; hash: Buffer } | null {
  const [prefix, rounds, memCost, separator, signerKey, salt, hash, ...rest] = stored.split("$");
  if (prefix !== PREFIX || rest.length > 0 || !separator || !signerKey || !salt || !hash) return null;
  const config = {
    rounds: Number(rounds),
    memCost: Number(memCost),
    saltSeparator: Buffer.from(separator, "base64"),
    signerKey: Buffer.from(signerKey, "base64"),
  };
  if (!validParameters(config.rounds, config.memCost)) return null;
  return { config, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

export function validParameters(rounds: number, memCost: number): boolean {
  return (
    Number.isInteger(rounds) &&
    rounds >= 1 &&
    rounds <= 32 &&
    Number.isInteger(memCost) &&
    memCost >= 1 &&
    memCost <= 20
  );
}

/** Whether `password` is the one an imported Firebase hash was made from; false for anything unreadable. */
export async function verifyFirebaseHash(stored: string, password: string): Promise<boolean> {
  const decoded = decodeFirebaseHash(stored);
  if (!decoded || decoded.hash.length === 0) return false;
  const computed = await firebaseScryptHash(password, decoded.salt, decoded.config);
  return computed.length === decoded.hash.length && timingSafeEqual(computed, decoded.hash);
}
