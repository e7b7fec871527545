import { generateKeyPairSync } from "node:crypto";
import { simpleParser, type ParsedMail } from "mailparser";
import { dkimVerify } from "mailauth/lib/dkim/verify.js";
import { SMTPServer } from "smtp-server";

/** A message the local server accepted (answered 250), as received. */
export type AcceptedMail = { to: string; raw: Buffer };

/** A refusal the server gives an address: at RCPT TO, `times` times (all of them when absent). */
type Refusal = { code: number; message: string; times?: number };

export type NewsletterSmtp = {
  url: string;
  accepted: AcceptedMail[];
  /** Refuse RCPT TO for `address` with `code` (4xx or 5xx), `times` times or for ever. */
  refuse: (address: string, refusal: Refusal) => void;
  /** Once `accepted` holds `after` messages, answer none: each waits in `held` until `release`. */
  hold: (after: number) => void;
  held: () => number;
  /** Answers every held message with a temporary refusal and takes messages again. */
  release: () => void;
  /** Messages accepted for `to`. */
  mailsTo: (to: string) => AcceptedMail[];
  stop: () => Promise<void>;
};

/** A real SMTP server on 127.0.0.1 that records what it accepts and refuses as told. */
export async function startNewsletterSmtp(): Promise<NewsletterSmtp> {
  const accepted: AcceptedMail[] = [];
  const refusals = new Map<string, Refusal>();
  let holdAfter = Number.POSITIVE_INFINITY;
  let held: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal && (refusal.times === undefined || refusal.times > 0)) {
        if (refusal.times !== undefined) refusal.times--;
        const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const answer = () => {
          for (const rcpt of session.envelope.rcptTo) accepted.push({ to: rcpt.address, raw: Buffer.concat(chunks) });
          callback();
        };
        if (accepted.length < holdAfter) return answer();
        held.push(() => callback(Object.assign(new Error("try again later"), { responseCode: 451 })));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // A sender killed mid-send drops its connections: that is what some tests do.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET" && error.code !== "EPIPE") throw error;
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    refuse: (to, refusal) => refusals.set(to.toLowerCase(), { ...refusal }),
    hold: (after) => {
      holdAfter = after;
    },
    held: () => held.length,
    release: () => {
      holdAfter = Number.POSITIVE_INFINITY;
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    mailsTo: (to) => accepted.filter((mail) => mail.to === to),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A DKIM key pair for the tests: the private key for DKIM_PRIVATE_KEY, the DNS record that publishes it. */
export function dkimKeyPair(): { privateKey: string; record: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const der = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    record: `v=DKIM1; k=rsa; p=${der}`,
  };
}

/** The DKIM results of `raw`, the key looked up at `<selector>._domainkey.<domain>` answered with `record`. */
export async function dkimResults(raw: Buffer, name: string, record: string) {
  const result = await dkimVerify(raw, {
    resolver: async (domain: string, type: string) => {
      if (type === "TXT" && domain === name) return [[record]];
      throw Object.assign(new Error(`no ${type} record for ${domain}`), { code: "ENOTFOUND" });
    },
  });
  return result.results.map((signature) => ({
    domain: signature.signingDomain,
    selector: signature.selector,
    result: signature.status.result,
  }));
}

export function parsedMail(raw: Buffer): Promise<ParsedMail> {
  return simpleParser(raw);
}
