/**
 * Account administration: npm run user -- promote <email> | demote <email> | set-role <email> <role> | create-admin <email> <username> | set-password <email>
 * The owner's way to set roles outside the users page, with no last-admin guard (docs/product.md#roles).
 */
import { z } from "zod";
import { isRole, ROLES } from "../app/lib/constants";
import { createAuth } from "../app/server/accounts/auth-instance.server";
import { config } from "../app/server/platform/config.server";
import { openDatabase } from "../app/server/db/db.server";
import { migrateToLatest } from "../app/server/data/migrate.server";
import { createAccount, generatePassword, setPassword, setRole } from "../app/server/accounts/users.server";

const USAGE = `Usage:
  npm run user -- promote <email>                  make an account an admin
  npm run user -- demote <email>                   make an admin a plain user
  npm run user -- set-role <email> <role>          give an account a role: ${ROLES.join(", ")}
  npm run user -- create-admin <email> <username>  create an admin account and print its password
  npm run user -- set-password <email>             give an account a new password and print it (an imported account without one)`;

const emailArg = z.email().max(254);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const [command, rawEmail, ...rest] = process.argv.slice(2);
if (!command || !["promote", "demote", "set-role", "create-admin", "set-password"].includes(command)) fail(USAGE);
const parsedEmail = emailArg.safeParse(rawEmail?.trim().toLowerCase());
if (!parsedEmail.success) fail(`Not a valid email address: ${rawEmail ?? "(none)"}\n\n${USAGE}`);
const email = parsedEmail.data;
const wantedRole = rest[0]?.trim();
if (command === "set-role" && !isRole(wantedRole))
  fail(`Not a role: ${wantedRole ?? "(none)"}; one of ${ROLES.join(", ")}.\n\n${USAGE}`);

const cfg = config();
const db = openDatabase(cfg.databaseUrl);
try {
  await migrateToLatest(db);
  if (command === "create-admin") {
    const username = rest.join(" ").trim();
    if (!username) fail(`A username is needed.\n\n${USAGE}`);
    const existing = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirst();
    if (existing) fail(`An account with ${email} already exists; use "promote" instead.`);
    const password = generatePassword();
    await createAccount(createAuth(db, cfg), db, { email, username, password, role: "admin" });
    console.log(
      `Admin account created.\n  email:    ${email}\n  password: ${password}\nThis password is shown only once.`,
    );
  } else if (command === "set-password") {
    const password = generatePassword();
    if (!(await setPassword(createAuth(db, cfg), db, email, password))) fail(`No account has the email ${email}.`);
    console.log(`New password for ${email}: ${password}\nThis password is shown only once.`);
  } else if (command === "set-role" && isRole(wantedRole)) {
    if (!(await setRole(db, email, wantedRole))) fail(`No account has the email ${email}.`);
    console.log(`${email} is now ${wantedRole === "user" ? "a user" : `an ${wantedRole}`}.`);
  } else {
    const role = command === "promote" ? "admin" : "user";
    if (!(await setRole(db, email, role))) fail(`No account has the email ${email}.`);
    console.log(`${email} is now ${role === "admin" ? "an admin" : "a user"}.`);
  }
} finally {
  await db.destroy();
}
