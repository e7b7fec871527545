import { infoPages, type InfoPageKey } from "~/lib/info-pages";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Route } from "./+types/info";

function isInfoPageKey(value: string): value is InfoPageKey {
  return Object.hasOwn(infoPages, value);
}

export function loader({ request }: Route.LoaderArgs) {
  const key = new URL(request.url).pathname.replace(/^\/+|\/+$/g, "");
  if (!isInfoPageKey(key)) throw pageError(new AppError("not-found"));
  return { key };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: messages.pageNotFound }];
  const page = infoPages[loaderData.key];
  return pageMeta({ baseUrl: baseUrlOf(matches), path: `/${loaderData.key}`, title: `${page.title} | ${messages.siteName}`, description: page.description });
}

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  const page = infoPages[loaderData.key];
  return (
    <article className="mx-auto max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-10" aria-labelledby="info-title">
      <h1 id="info-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {page.title}
      </h1>
      <div className="space-y-8">
        {page.sections.map((section) => (
          <section key={section.heading}>
            <h2 className="mb-2 text-xl font-bold">{section.heading}</h2>
            <div className="space-y-3 leading-loose text-stone-700">
              {section.paragraphs.map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          </section>
        ))}
      </div>
    </article>
  );
}
