import type { Transporter } from "nodemailer";
import { mailMessages } from "~/lib/newsroom-messages";
import type { Config } from "~/server/platform/config.server";
import { dkimOptions } from "./bulk-transport.server";

/** One message, plain text and optionally HTML; the mailer adds the sender. */
export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(message: MailMessage): Promise<void> };

/** Sends through the SMTP server of SMTP_URL, signed when a DKIM key is set; null when mail is not configured. nodemailer loads with the first message. */
export function createMailer(mail: Config["mail"]): Mailer | null {
  if (!mail) return null;
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) =>
        nodemailer.createTransport({ url: mail.smtpUrl, dkim: dkimOptions(mail) } as Parameters<
          typeof nodemailer.createTransport
        >[0]),
      );
      await (await transport).sendMail({ from: mail.from, ...message });
    },
  };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The link a reset or invitation mail carries: the token goes to our own page, which sets the password. */
export function resetPageLink(baseUrl: string, token: string): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

export function resetMail(to: { email: string; name: string }, link: string): MailMessage {
  return {
    to: to.email,
    subject: mailMessages.resetMailSubject,
    text: fill(mailMessages.resetMailBody, { name: to.name, link }),
  };
}

export function invitationMail(to: { email: string; name: string }, inviter: string, link: string): MailMessage {
  return {
    to: to.email,
    subject: mailMessages.inviteMailSubject,
    text: fill(mailMessages.inviteMailBody, { name: to.name, inviter, link, email: to.email }),
  };
}

/** The mail telling an editor that `story` waits for review, with the link to its edit page. */
export function reviewMail(
  to: { email: string; name: string },
  story: { title: string; author: string },
  link: string,
): MailMessage {
  return {
    to: to.email,
    subject: fill(mailMessages.reviewMailSubject, { title: story.title }),
    text: fill(mailMessages.reviewMailBody, { name: to.name, author: story.author, title: story.title, link }),
  };
}
