import { z } from "zod";
import { validParameters, type FirebaseHashConfig } from "~/server/accounts/firebase-scrypt.server";
import { MalformedExportError } from "./firestore-export.server";
import type { Parsed } from "./firebase-records.server";

/** One account of `firebase auth:export users.json --format=json`. */
export type FirebaseAuthUser = {
  uid: string;
  email: string;
  emailVerified: boolean;
  displayName: string | null;
  createdAt: Date | null;
  /** Both base64, both absent for an account without a password (Google sign-in and the like). */
  password: { hash: Buffer; salt: Buffer } | null;
};

const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "not base64");

const authUser = z.object({
  localId: z.string().min(1),
  email: z.email(),
  emailVerified: z.boolean().default(false),
  displayName: z.string().optional(),
  createdAt: z.union([z.string(), z.number()]).optional(),
  passwordHash: base64.optional(),
  salt: base64.optional(),
});

/** The file's accounts as raw entries, each checked on its own later; a file that is not an export stops here. */
export function parseAuthExport(text: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MalformedExportError(`The Auth export is not valid JSON: ${(error as Error).message}`);
  }
  const users = (json as { users?: unknown } | null)?.users;
  if (!Array.isArray(users))
    throw new MalformedExportError(
      'The Auth export has no "users" list (made with firebase auth:export users.json --format=json?).',
    );
  return users;
}

export function parseAuthUser(raw: unknown): Parsed<FirebaseAuthUser> & { uid: string } {
  const uid =
    typeof (raw as { localId?: unknown })?.localId === "string" ? (raw as { localId: string }).localId : "(no localId)";
  const parsed = authUser.safeParse(raw);
  if (!parsed.success)
    return { uid, ok: false, problem: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  const { localId, email, emailVerified, displayName, createdAt, passwordHash, salt } = parsed.data;
  const created = createdAt === undefined ? null : new Date(Number(createdAt));
  return {
    uid,
    ok: true,
    value: {
      uid: localId,
      email: email.toLowerCase(),
      emailVerified,
      displayName: displayName?.trim() || null,
      createdAt: created && !Number.isNaN(created.getTime()) ? created : null,
      password:
        passwordHash && salt ? { hash: Buffer.from(passwordHash, "base64"), salt: Buffer.from(salt, "base64") } : null,
    },
  };
}

const hashConfig = z.object({
  algorithm: z.string().optional(),
  base64_signer_key: base64.min(1),
  base64_salt_separator: base64,
  rounds: z.coerce.number().int(),
  mem_cost: z.coerce.number().int(),
});

/** The console's `hash_config { key: value, … }` block as an object, when the file is not JSON. */
function consoleBlock(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/(\w+)\s*:\s*([^,\s}]+)/g)].map((match) => [match[1]!, match[2]!]));
}

/** The project's password hash parameters, as JSON or as the console's block; stops on anything else. */
export function parseHashConfig(text: string): FirebaseHashConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = consoleBlock(text);
  }
  const parsed = hashConfig.safeParse((raw as { hash_config?: unknown })?.hash_config ?? raw);
  if (!parsed.success)
    throw new MalformedExportError(
      "The hash config needs base64_signer_key, base64_salt_separator, rounds and mem_cost, as the Firebase console shows them.",
    );
  const { algorithm, base64_signer_key, base64_salt_separator, rounds, mem_cost } = parsed.data;
  if (algorithm && algorithm.toUpperCase() !== "SCRYPT")
    throw new MalformedExportError(`The hash config's algorithm is ${algorithm}; only Firebase's SCRYPT is supported.`);
  if (!validParameters(rounds, mem_cost))
    throw new MalformedExportError(`The hash config's rounds (${rounds}) or mem_cost (${mem_cost}) is out of range.`);
  return {
    signerKey: Buffer.from(base64_signer_key, "base64"),
    saltSeparator: Buffer.from(base64_salt_separator, "base64"),
    rounds,
    memCost: mem_cost,
  };
}
