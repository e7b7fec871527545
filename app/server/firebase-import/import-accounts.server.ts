import type { Role } from "~/lib/constants";
import { encodeFirebaseHash } from "~/server/accounts/firebase-scrypt.server";
import { importAccount, type ImportedAccount } from "~/server/accounts/imported-accounts.server";
import { parseAuthUser, type FirebaseAuthUser } from "./auth-export.server";
import { parseUserData, type FirebaseUserData } from "./firebase-records.server";
import { warn } from "./import-report.server";
import { collection, DEFAULT_BATCH_SIZE, inBatches, type Run } from "./import-run.server";
import { fingerprintOf, readImported, recordImported } from "./import-state.server";

type PlannedAccount = { account: ImportedAccount; fingerprint: string };

/**
 * The Auth export's accounts, each with the username and role of its `users` document and its
 * password hash, written in batches; an unchanged one is left alone, an address taken here skipped.
 */
export async function importAccounts(run: Run, authUsers: unknown[]): Promise<void> {
  const userData = new Map<string, FirebaseUserData>();
  for (const [uid, doc] of collection(run.sources, "users")) {
    const parsed = parseUserData(doc);
    if (parsed.ok) userData.set(uid, parsed.value);
    else
      warn(
        run.report,
        "accounts",
        uid,
        `users/${uid} is malformed (${parsed.problem}): the account gets no username or role from it`,
        false,
      );
  }
  const planned: PlannedAccount[] = [];
  for (const raw of authUsers) {
    const parsed = parseAuthUser(raw);
    if (!parsed.ok) warn(run.report, "accounts", parsed.uid, `malformed, skipped: ${parsed.problem}`);
    else planned.push(plannedAccount(run, parsed.value, userData.get(parsed.value.uid)));
  }
  const inAuth = new Set(planned.map((p) => p.account.id));
  for (const uid of userData.keys())
    if (!inAuth.has(uid)) warn(run.report, "accounts", uid, `users/${uid} has no account in the Auth export: skipped`);
  const imported = await readImported(run.db, "account", [...inAuth]);
  const toWrite = planned.filter((p) => imported.get(p.account.id)?.fingerprint !== p.fingerprint);
  run.report.counts.accounts.unchanged += planned.length - toWrite.length;
  let done = planned.length - toWrite.length;
  run.options.onProgress?.("accounts", done, planned.length);
  for (const batch of inBatches(toWrite, run.options.batchSize ?? DEFAULT_BATCH_SIZE)) {
    if (run.options.dryRun)
      for (const { account } of batch) run.report.counts.accounts[imported.has(account.id) ? "updated" : "created"]++;
    else await writeAccounts(run, batch);
    done += batch.length;
    run.options.onProgress?.("accounts", done, planned.length);
  }
}

function plannedAccount(run: Run, user: FirebaseAuthUser, data: FirebaseUserData | undefined): PlannedAccount {
  const config = run.sources.hashConfig;
  const role: Role = data?.role ?? "user";
  if (data?.unknownRole)
    warn(run.report, "accounts", user.uid, `unknown role "${data.unknownRole}": imported as user`, false);
  if (!user.password)
    warn(
      run.report,
      "accounts",
      user.uid,
      `${user.email} has no password hash (Google sign-in or the like): imported without a password; give it one with npm run user -- set-password ${user.email}`,
      false,
    );
  const account: ImportedAccount = {
    id: user.uid,
    email: user.email,
    username: data?.username ?? user.displayName ?? user.email.split("@")[0]!,
    role,
    emailVerified: user.emailVerified,
    createdAt: (user.createdAt ?? new Date(0)).toISOString(),
    legacyPassword: user.password && config ? encodeFirebaseHash(user.password.hash, user.password.salt, config) : null,
  };
  return { account, fingerprint: fingerprintOf(account) };
}

async function writeAccounts(run: Run, batch: PlannedAccount[]): Promise<void> {
  const outcomes = await run.db.transaction().execute(async (trx) => {
    const results: Awaited<ReturnType<typeof importAccount>>[] = [];
    for (const { account, fingerprint } of batch) {
      const outcome = await importAccount(trx, account);
      if (outcome !== "email-taken") await recordImported(trx, "account", account.id, fingerprint);
      results.push(outcome);
    }
    return results;
  });
  for (const [index, outcome] of outcomes.entries()) {
    const { account } = batch[index]!;
    if (outcome === "email-taken")
      warn(run.report, "accounts", account.id, `${account.email} already belongs to another account here: skipped`);
    else run.report.counts.accounts[outcome]++;
  }
}
