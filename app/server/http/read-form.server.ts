import type { FieldMessages } from "~/lib/error-body";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { z } from "~/lib/zod";
import { AppError } from "~/server/platform/app-error.server";
import { DEFAULT_BODY_BYTES } from "./body-limit.server";
import { readSmallForm } from "./form.server";
import type { Submission } from "./multipart-form.server";

/** A form as read: the names it sent, and every text sent under a name (undefined: none; files left out). */
export type FormTexts = {
  names: readonly string[];
  texts: (name: string) => readonly string[] | undefined;
};

/** A request whose body is a small form (readSmallForm), a form already read, or a submission with its files staged. */
export type FormSource = Request | FormData | Submission;

export type ReadFormOptions = {
  /** The fields the form has: any other it sent is refused by its name before anything is checked (a typo is not dropped without a word). */
  known?: ReadonlySet<string>;
  /** What the schema reads, from the form's texts; by default each field's first text. */
  values?: (form: FormTexts) => unknown;
  /** The field a message is shown beside, for fields the form shows together under one name. */
  fieldOf?: (field: string) => string;
  /** The refusal's message: the catalogue's (the default), or its first field message, for a page that shows one. */
  message?: "catalogue" | "first";
  /** The field messages the refusal carries: each field's first (the default), only the first field's, or none. */
  fields?: "each" | "first" | "none";
  /** What is thrown instead of that refusal, made from the field messages. */
  refusal?: (fields: FieldMessages) => unknown;
  /** A request's body at most (readSmallForm's limit). */
  maxBytes?: number;
};

/**
 * Each field's first message, from Zod's own flattening: a message about no field is the whole form's (`form`).
 * `fieldOf` names the field a message is shown beside; the first message given to a name stays.
 */
function fieldMessagesOf(error: z.ZodError, fieldOf: (field: string) => string = (field) => field): FieldMessages {
  const { formErrors, fieldErrors } = z.flattenError(error);
  const fields: FieldMessages = {};
  if (formErrors[0] !== undefined) fields.form = formErrors[0];
  for (const [field, messages] of Object.entries<string[] | undefined>(fieldErrors)) {
    const first = messages?.[0];
    if (first !== undefined) fields[fieldOf(field)] ??= first;
  }
  return fields;
}

/** The refusal of a form whose fields carry `fields`, shaped as `options` asks. */
function refusalOf(fields: FieldMessages, { message = "catalogue", fields: carried = "each" }: ReadFormOptions) {
  const [first] = Object.entries(fields);
  const shown = carried === "each" ? fields : carried === "first" && first ? { [first[0]]: first[1] } : undefined;
  return new AppError("validation", { message: message === "first" ? first?.[1] : undefined, fields: shown });
}

function textsOfFormData(form: FormData): FormTexts {
  return {
    names: [...new Set(form.keys())],
    texts: (name) =>
      form.has(name) ? form.getAll(name).filter((value): value is string => typeof value === "string") : undefined,
  };
}

async function formTexts(source: FormSource, maxBytes: number): Promise<FormTexts> {
  if (source instanceof Request) return textsOfFormData(await readSmallForm(source, maxBytes));
  if (source instanceof FormData) return textsOfFormData(source);
  return { names: Object.keys(source.fields), texts: (name) => source.fields[name] };
}

const firstTexts = ({ names, texts }: FormTexts) => Object.fromEntries(names.map((name) => [name, texts(name)?.[0]]));

/**
 * A form read into `schema`'s typed output. Refused, it throws the one refusal type, AppError "validation",
 * with each field's first message (`fieldMessagesOf`), unless `options` shape it otherwise; a request whose
 * body is no small form is refused as readSmallForm refuses it.
 */
export async function readForm<S extends z.ZodType>(
  schema: S,
  source: FormSource,
  options: ReadFormOptions = {},
): Promise<z.output<S>> {
  const form = await formTexts(source, options.maxBytes ?? DEFAULT_BODY_BYTES);
  const { known } = options;
  const unknown = known && form.names.find((name) => !known.has(name));
  if (unknown !== undefined)
    throw new AppError("validation", {
      message: newsroomMessages.fieldUnknown,
      fields: { [unknown]: newsroomMessages.fieldUnknown },
    });
  const parsed = schema.safeParse((options.values ?? firstTexts)(form));
  if (parsed.success) return parsed.data;
  const fields = fieldMessagesOf(parsed.error, options.fieldOf);
  throw options.refusal ? options.refusal(fields) : refusalOf(fields, options);
}
