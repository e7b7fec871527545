import { z } from "./zod";
import { topicMessages } from "./newsroom-messages";
import { parseTopicList, TOPIC_DESCRIPTION_MAX, TOPICS_FIELD_MAX } from "./topics";

/** The article form's topics: a comma-separated text, checked into a list of names; absent stays absent. */
export const topicsField = z
  .string()
  .transform((text, ctx) => {
    const parsed = parseTopicList(text);
    if ("names" in parsed) return parsed.names;
    ctx.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  })
  .optional();

const topicId = z.string().min(1, topicMessages.topicNotFound).max(40, topicMessages.topicNotFound);

/** A description as stored: its spaces collapsed and its ends trimmed; blank is none. */
const description = z
  .string()
  .transform((text) => text.replace(/\s+/g, " ").trim())
  .pipe(z.string().max(TOPIC_DESCRIPTION_MAX, topicMessages.descriptionTooLong))
  .transform((text) => (text === "" ? null : text));

/** The admins' topic screen: create a topic, describe, rename or delete one, or merge one into another. */
export const topicActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("create"),
      name: z.string().max(TOPICS_FIELD_MAX, topicMessages.nameTooLong),
      description,
    }),
    z.object({ intent: z.literal("describe"), id: topicId, description }),
    z.object({ intent: z.literal("delete"), id: topicId }),
    z.object({
      intent: z.literal("rename"),
      id: topicId,
      name: z.string().max(TOPICS_FIELD_MAX, topicMessages.nameTooLong),
    }),
    z.object({ intent: z.literal("merge"), id: topicId, into: topicId }),
  ],
  { error: topicMessages.actionInvalid },
);
