import { SMTPServer } from "smtp-server";

/** A message the local SMTP server took, its text body decoded. */
export type ReceivedMail = { to: string[]; raw: string; text: string };

export type SmtpServer = {
  /** For SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next message to `to` (already here, or when it arrives). */
  mailTo: (to: string, timeoutMs?: number) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The text of a single-part message, as nodemailer writes one (7bit, quoted-printable or base64). */
export function mailText(raw: string): string {
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}

/** The reset page link a mail carries. */
export function linkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/reset-password\?token=[\w%-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no reset link in:\n${mail.text}`);
  return link;
}

/** A real SMTP server on 127.0.0.1 (port 0: any free one unless `port` is given) that keeps what it receives. */
export async function startSmtpServer(port = 0): Promise<SmtpServer> {
  const received: ReceivedMail[] = [];
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1");
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, text: mailText(raw) };
        received.push(mail);
        for (const waiter of waiting.filter((w) => mail.to.includes(w.to))) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    received,
    mailTo: (to, timeoutMs = 10_000) => {
      const taken = received.find((mail) => mail.to.includes(to));
      if (taken) {
        received.splice(received.indexOf(taken), 1);
        return Promise.resolve(taken);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({
          to,
          resolve: (mail) => {
            clearTimeout(timer);
            received.splice(received.indexOf(mail), 1);
            resolve(mail);
          },
        });
      });
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
