import { newsletterMessages as m } from "~/lib/messages";
import { isCategory, NEWSLETTER_CATEGORIES, type Category } from "~/lib/categories";
import { AppError } from "~/server/platform/app-error.server";

/** What a subscriber chose: the morning brief, breaking news, alerts of these categories too. */
export type Choices = { brief: boolean; breaking: boolean; categories: Category[] };

const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const MAX_ADDRESS = 254;

/** An address as stored: trimmed and lowercase; null when it is no address a mail can go to. */
export function normalisedAddress(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= MAX_ADDRESS && ADDRESS.test(email) ? email : null;
}

/** A form's choices (checkboxes named brief, breaking and categories); a 400 in Arabic when none is chosen. */
export function choicesOf(fields: Record<string, string[]>): Choices {
  const categories = fields.categories ?? [];
  if (
    categories.length > NEWSLETTER_CATEGORIES.length ||
    categories.some((c) => !isCategory(c) || !NEWSLETTER_CATEGORIES.includes(c))
  )
    throw new AppError("validation", { fields: { categories: m.categoriesInvalid } });
  const choices = {
    brief: fields.brief?.[0] === "on",
    breaking: fields.breaking?.[0] === "on",
    categories: [...new Set(categories as Category[])],
  };
  if (!choices.brief && !choices.breaking && choices.categories.length === 0)
    throw new AppError("validation", { fields: { brief: m.chooseOne } });
  return choices;
}

export function addressOf(fields: Record<string, string[]>): string {
  const email = normalisedAddress(fields.email?.[0] ?? "");
  if (!email) throw new AppError("validation", { fields: { email: m.emailInvalid } });
  return email;
}

export function parsedCategories(text: string): Category[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((c): c is Category => typeof c === "string" && isCategory(c)) : [];
  } catch {
    return [];
  }
}
