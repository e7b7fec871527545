import type { Transporter } from "nodemailer";
import type { Config } from "~/server/platform/config.server";

/** One message as the bulk transport sends it: both parts and the list headers. */
export type BulkMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  messageId: string;
};

export type BulkTransport = { send: (message: BulkMessage) => Promise<void>; close: () => void };

/** What a refusal of the mail server says: its code, and the command it answered (`RCPT TO`, `DATA`…). */
export type SmtpRefusal = { code: number | null; command: string | null };

export function refusalOf(error: unknown): SmtpRefusal {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown };
  return {
    code: typeof responseCode === "number" ? responseCode : null,
    command: typeof command === "string" ? command : null,
  };
}

/** The headers a DKIM signature covers: those of mail/ readers and providers check, the one-click pair among them. */
const SIGNED_HEADERS =
  "From:To:Subject:Date:Message-ID:MIME-Version:Content-Type:List-Id:List-Unsubscribe:List-Unsubscribe-Post";

/** nodemailer's DKIM options for `mail`, or none without a key. */
export function dkimOptions(mail: NonNullable<Config["mail"]>) {
  if (!mail.dkim) return undefined;
  return {
    domainName: mail.dkim.domain,
    keySelector: mail.dkim.selector,
    privateKey: mail.dkim.privateKey,
    headerFieldNames: SIGNED_HEADERS,
  };
}

/**
 * Pooled connections to the SMTP server of SMTP_URL, at most `perSecond` messages a second, signed
 * with DKIM when a key is configured. nodemailer loads with the first message.
 */
export function createBulkTransport(
  mail: NonNullable<Config["mail"]>,
  perSecond: number,
  connections = 4,
): BulkTransport {
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) =>
        nodemailer.createTransport({
          url: mail.smtpUrl,
          pool: true,
          maxConnections: connections,
          maxMessages: 1000,
          rateDelta: 1000,
          rateLimit: perSecond,
          dkim: dkimOptions(mail),
        } as Parameters<typeof nodemailer.createTransport>[0]),
      );
      await (await transport).sendMail({ from: mail.from, ...message });
    },
    close() {
      void transport?.then((open) => open.close());
      transport = undefined;
    },
  };
}
