import { z } from "./zod";
import { topicMessages } from "./messages";
import { parseTopicList, TOPICS_FIELD_MAX } from "./topics";

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

/** The admins' topic screen: rename one topic, or merge one into another. */
export const topicActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rename"), id: topicId, name: z.string().max(TOPICS_FIELD_MAX, topicMessages.nameTooLong) }),
  z.object({ intent: z.literal("merge"), id: topicId, into: topicId }),
], { error: topicMessages.actionInvalid });
