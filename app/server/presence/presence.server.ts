import { canEditArticle } from "~/lib/permissions";
import { z } from "~/lib/zod";
import { messages } from "~/lib/messages";
import { conflictMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import type { CurrentUser } from "~/server/accounts/guards.server";
import { eventMessage, type EventStreams } from "~/server/http/event-stream.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { articleNotFound, articleNotYours, ownershipOf } from "~/server/news/ownership.server";
import { recordPresenceEvent, writeWithEvents, type PresenceNotice } from "~/server/outbox/outbox.server";
import type { PresenceMap } from "./presence-map.server";

/*
 * Who else has a story's edit form open (decision 034). The form announces itself (open, a
 * heartbeat, leaving); each announcement is an outbox event, so every process's presence map hears it;
 * the open forms of each process hear the changes over Server-Sent Events.
 */

/** A form's announcement: its tab and whether it is open or left (http/read-form, PRESENCE_FORM_READING). */
export const announcementSchema = z.object({
  tab: z
    .string({ error: conflictMessages.presenceBadId })
    .regex(/^[A-Za-z0-9-]{8,64}$/, conflictMessages.presenceBadId),
  state: z.enum(["open", "leave"], { error: messages.badRequest }),
});

export type Announcement = z.output<typeof announcementSchema>;

/** The first problem is the whole answer, by its field. */
export const PRESENCE_FORM_READING: ReadFormOptions = { message: "first", fields: "first" };

async function assertMayEdit(db: DB, user: CurrentUser, articleId: string): Promise<void> {
  const access = await ownershipOf(db, articleId);
  if (!access || access.status === "trashed") throw articleNotFound();
  if (!canEditArticle(user, access)) throw articleNotYours();
}

/** `user`'s form (its tab) on article `articleId` is open, still open, or left. */
export async function announcePresence(
  db: DB,
  user: CurrentUser,
  articleId: string,
  { tab, state }: Announcement,
): Promise<void> {
  await assertMayEdit(db, user, articleId);
  const notice: PresenceNotice = { userId: user.id, name: user.name, tab, state };
  await writeWithEvents(db, (trx) => recordPresenceEvent(trx, articleId, notice));
}

/**
 * GET the presence of article `articleId`'s form as Server-Sent Events: the names of the others who have
 * it open now, then again at each change.
 */
export async function openPresenceStream(
  source: { db: DB; presence: PresenceMap; streams: EventStreams },
  user: CurrentUser,
  articleId: string,
  request: Request,
  clientIp: string,
): Promise<Response> {
  await assertMayEdit(source.db, user, articleId);
  const others = (editors: { id: string; name: string }[]) =>
    editors.filter((editor) => editor.id !== user.id).map((editor) => editor.name);
  return source.streams.open("newsroom", request, clientIp, (send) => {
    let last = "";
    const tell = (names: string[]) => {
      // The others who have the form open now; no id: a reconnect is told them afresh.
      const text = eventMessage(null, { editors: names });
      if (text !== last) send((last = text));
    };
    const unsubscribe = source.presence.subscribe(articleId, (editors) => tell(others(editors)));
    tell(others(source.presence.editors(articleId)));
    return unsubscribe;
  });
}
