import { describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { newsroomMessages as nm } from "~/lib/newsroom-messages";
import { z } from "~/lib/zod";
import { AppError } from "~/server/platform/app-error.server";
import { readForm, type FormSource, type ReadFormOptions } from "./read-form.server";

const formOf = (fields: Record<string, string | string[]>): FormData => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  return form;
};

const storySchema = z.object({
  title: z.string({ error: nm.titleRequired }).trim().min(1, nm.titleRequired).max(20, nm.titleTooLong),
  count: z
    .string({ error: messages.badRequest })
    .regex(/^\d+$/, messages.badRequest)
    .transform((digits) => Number(digits)),
});

/** The refusal `readForm` throws, or a failure when it reads the form. */
async function refusal(schema: z.ZodType, source: FormSource, options?: ReadFormOptions): Promise<AppError> {
  const error = await readForm(schema, source, options).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!AppError.is(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("readForm", () => {
  it("gives the schema's typed output, from a form, a request or a submission", async () => {
    const typed: { title: string; count: number } = await readForm(storySchema, formOf({ title: " خبر ", count: "3" }));
    expect(typed).toEqual({ title: "خبر", count: 3 });

    const request = new Request("http://localhost/", {
      method: "POST",
      body: new URLSearchParams({ title: "عنوان", count: "12" }),
    });
    expect(await readForm(storySchema, request)).toEqual({ title: "عنوان", count: 12 });

    const submission = { fields: { title: ["أول", "ثانٍ"], count: ["7"] }, files: [] };
    expect(await readForm(storySchema, submission)).toEqual({ title: "أول", count: 7 });
    const lists = z.object({ title: z.array(z.string()) });
    expect(await readForm(lists, submission, { values: ({ texts }) => ({ title: texts("title") }) })).toEqual({
      title: ["أول", "ثانٍ"],
    });
  });

  it("refuses with each failing field's message, as a 400 validation error with the catalogue's message", async () => {
    const error = await refusal(storySchema, formOf({ title: "  ", count: "كثير" }));
    expect(error).toMatchObject({ code: "validation", status: 400, message: messages.validationFailed });
    expect(error.fields).toEqual({ title: nm.titleRequired, count: messages.badRequest });
    expect((await refusal(storySchema, formOf({ count: "1" }))).fields).toEqual({ title: nm.titleRequired });
  });

  it("gives each field its first message only", async () => {
    const twice = z.object({
      slug: z
        .string()
        .min(5, nm.titleTooLong)
        .regex(/^[a-z]+$/, nm.titleRequired),
    });
    const error = await refusal(twice, formOf({ slug: "A1" }));
    expect(error.fields).toEqual({ slug: nm.titleTooLong });
  });

  it("names a message about no one field the whole form's, and can make it the refusal's message", async () => {
    const matching = z
      .object({ a: z.string(), b: z.string() })
      .refine(({ a, b }) => a === b, { message: nm.fieldUnknown });
    const error = await refusal(matching, formOf({ a: "1", b: "2" }), { message: "first" });
    expect(error.fields).toEqual({ form: nm.fieldUnknown });
    expect(error.message).toBe(nm.fieldUnknown);
  });

  it("shapes the refusal as the page shows it: its first message, one field or none, fields shown together", async () => {
    const form = formOf({ title: "", count: "x" });
    expect(await refusal(storySchema, form, { message: "first", fields: "first" })).toMatchObject({
      message: nm.titleRequired,
      fields: { title: nm.titleRequired },
    });
    const alone = await refusal(storySchema, form, { message: "first", fields: "none" });
    expect([alone.message, alone.fields]).toEqual([nm.titleRequired, undefined]);
    const together = await refusal(storySchema, form, { fieldOf: () => "story" });
    expect(together.fields).toEqual({ story: nm.titleRequired });
    const instead = await refusal(storySchema, form, {
      refusal: (fields) => new AppError("bad-request", { message: fields.count }),
    });
    expect([instead.code, instead.message]).toEqual(["bad-request", messages.badRequest]);
  });

  it("refuses a field the form does not have by its name, before any check", async () => {
    const error = await refusal(storySchema, formOf({ title: "", count: "1", titel: "خبر" }), {
      known: new Set(["title", "count"]),
    });
    expect(error).toMatchObject({ code: "validation", message: nm.fieldUnknown, fields: { titel: nm.fieldUnknown } });
  });

  it("refuses a request whose body is no form as readSmallForm does, never a 500", async () => {
    const json = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const answer = await readForm(storySchema, json).catch((thrown: unknown) => thrown);
    expect((answer as { init?: { status?: number } }).init?.status).toBe(400);
  });
});
