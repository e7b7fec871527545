import { Form } from "react-router";
import { BIO_MAX, LINK_MAX, LINKS_MAX, type AuthorProfile } from "~/lib/author-profile";
import { storyMessages } from "~/lib/newsroom-messages";
import { Notice } from "./account-fields";
import { FormField, input } from "./form-field";

/* The author page's photo, bio and links: the reader's view and the owner's form. */

/** A link's address as readers see it: its host and path, without the scheme. */
function shownLink(url: string): string {
  return url.replace(/^https?:\/\//, "").replace(/\/$/, "");
}

export function AuthorCard({ name, profile }: { name: string; profile: AuthorProfile }) {
  if (!profile.photo && !profile.bio && profile.links.length === 0) return null;
  return (
    <div
      className="mb-8 flex flex-col gap-4 rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:flex-row sm:items-start"
      data-testid="author-card"
    >
      {profile.photo && (
        <img
          src={profile.photo}
          alt={name}
          width={112}
          height={112}
          className="size-28 shrink-0 rounded-full object-cover"
        />
      )}
      <div className="min-w-0 space-y-3">
        {profile.bio && <p className="leading-relaxed text-stone-700">{profile.bio}</p>}
        {profile.links.length > 0 && (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label={storyMessages.authorLinks}>
            {profile.links.map((link) => (
              <li key={link} className="min-w-0">
                <a href={link} rel="me noopener" className="break-all text-brand-700 hover:underline" dir="ltr">
                  {shownLink(link)}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** The owner's form on /dashboard/account: a multipart form of its own, sent with intent "profile". */
export function AuthorProfileForm({
  profile,
  errors,
  done,
  className,
}: {
  profile: AuthorProfile;
  errors: Record<string, string | undefined>;
  done: boolean;
  className: string;
}) {
  const refused = errors.form;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className={className}
      aria-labelledby="profile-title"
      data-testid="profile-form"
    >
      <h2 id="profile-title" className="text-xl font-bold">
        {storyMessages.profileLegend}
      </h2>
      {done && <Notice tone="done">{storyMessages.profileSaved}</Notice>}
      {refused && <Notice tone="error">{refused}</Notice>}
      <FormField id="photo" label={storyMessages.photo} hint={storyMessages.photoHint} error={errors.photo}>
        {(describedBy) => (
          <>
            {profile.photo && (
              <div className="mb-2 flex items-center gap-3">
                <img src={profile.photo} alt="" width={64} height={64} className="size-16 rounded-full object-cover" />
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="removePhoto" value="on" />
                  {storyMessages.removePhoto}
                </label>
              </div>
            )}
            <input
              id="photo"
              name="photo"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
              className={input}
              aria-describedby={describedBy}
            />
          </>
        )}
      </FormField>
      <FormField id="bio" label={storyMessages.bio} error={errors.bio}>
        {(describedBy) => (
          <textarea
            id="bio"
            name="bio"
            rows={3}
            maxLength={BIO_MAX}
            defaultValue={profile.bio ?? ""}
            className={input}
            aria-invalid={errors.bio ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
      <FormField id="links" label={storyMessages.links} hint={storyMessages.linksHint} error={errors.links}>
        {(describedBy) => (
          <textarea
            id="links"
            name="links"
            rows={3}
            dir="ltr"
            maxLength={LINKS_MAX * (LINK_MAX + 2)}
            defaultValue={profile.links.join("\n")}
            className={input}
            aria-invalid={errors.links ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
      <button
        type="submit"
        name="intent"
        value="profile"
        className="rounded bg-brand-600 px-6 py-2 font-bold text-white hover:bg-brand-700"
      >
        {storyMessages.saveProfile}
      </button>
    </Form>
  );
}
