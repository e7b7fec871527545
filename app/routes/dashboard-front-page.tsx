import { redirect } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { FormField, input } from "~/components/form-field";
import { categoryLabel } from "~/lib/categories";
import { SLIDER_COUNT } from "~/lib/constants";
import { formatDateTime } from "~/lib/dates";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { chooseFormSchema, PLACEMENT_DEFAULT_MS, pinSlot, removeFormSchema, slideSlot } from "~/lib/front-page";
import { frontPageMessages as fm } from "~/lib/newsroom-messages";
import { pathOf, type NewsSummary } from "~/lib/news";
import { isoToBeirutWallTime } from "~/lib/publish-time";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireEditor } from "~/server/accounts/guards.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { readForm } from "~/server/http/read-form.server";
import {
  choosePlacement,
  FRONT_PAGE_FORM_READING,
  frontPageCandidates,
  listPlacements,
  removePlacement,
} from "~/server/news/front-page.server";
import { pinnedStories, sliderItems } from "~/server/news/reader-lists.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-front-page";

export const handle = HYDRATE_DOCUMENT;

const PATH = "/dashboard/front-page";
const QUERY_MAX = 100;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const query = (url.searchParams.get("q") ?? "").slice(0, QUERY_MAX);
  const [placements, slider, pins, candidates] = await Promise.all([
    listPlacements(site.db),
    sliderItems(site.db, site.readCache),
    pinnedStories(site.db, site.readCache),
    frontPageCandidates(site.db, query),
  ]);
  const done = url.searchParams.get("done");
  return {
    placements,
    slider,
    pins: [...pins.entries()].map(([category, item]) => ({ category, item })),
    candidates,
    query,
    defaultUntil: isoToBeirutWallTime(new Date(site.clock.now().getTime() + PLACEMENT_DEFAULT_MS).toISOString()),
    done: done === "saved" || done === "removed" ? done : null,
  };
}

/** Choose a story for a place, or remove one place's choice; refusals are shown beside the form's fields. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireEditor(site.auth, request);
  const form = await readSmallForm(request);
  return answerForm(async () => {
    if (formText(form, "intent") === "remove") {
      await removePlacement(site.db, await readForm(removeFormSchema, form, FRONT_PAGE_FORM_READING));
      return redirect(`${PATH}?done=removed`);
    }
    const choice = await readForm(chooseFormSchema, form, FRONT_PAGE_FORM_READING);
    await choosePlacement(site.db, choice, actor.id, site.clock.now());
    return redirect(`${PATH}?done=saved`);
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: PATH,
    title: `${fm.title} | ${siteOf(matches).name}`,
    description: fm.title,
    noindex: true,
    image: null,
  });
}

const button =
  "rounded border border-stone-300 bg-white px-3 py-1 text-sm font-bold hover:bg-stone-100 whitespace-nowrap";
const panel = "rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:p-6";

function slideName(position: number): string {
  return position === 1 ? fm.lead : `${fm.slide} ${position.toLocaleString("ar-LB")}`;
}

function RemoveButton({ slot, label }: { slot: string; label: string }) {
  return (
    <form method="post">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="slot" value={slot} />
      <button type="submit" className={`${button} text-brand-700`} aria-label={`${fm.remove}: ${label}`}>
        {fm.remove}
      </button>
    </form>
  );
}

function Row({
  name,
  item,
  until,
  slot,
  testId,
}: {
  name: string;
  item: NewsSummary | undefined;
  until: string | null;
  slot: string | null;
  testId: string;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid={testId}>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-bold text-stone-500">{name}</p>
        <p className="font-bold break-words">
          {!until && <span className="font-normal text-stone-500">{item ? `${fm.automaticNow} ` : fm.automatic}</span>}
          {item && (
            <a href={pathOf(item)} className="hover:text-brand-700">
              {item.title}
            </a>
          )}
        </p>
        {until && (
          <p className="text-sm text-stone-600">
            {fm.chosenUntil} <time dateTime={until}>{formatDateTime(until)}</time>
          </p>
        )}
      </div>
      {slot && <RemoveButton slot={slot} label={name} />}
    </li>
  );
}

export default function DashboardFrontPage({ loaderData, actionData }: Route.ComponentProps) {
  const { placements, slider, pins, candidates, query, defaultUntil, done } = loaderData;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  const heldAt = (slot: string) => placements.find((placement) => placement.slot === slot);
  return (
    <section aria-labelledby="front-page-title" className="space-y-6">
      <DashboardHeading id="front-page-title" title={fm.title} />
      <p className="text-stone-600">{fm.intro}</p>
      {done && (
        <p
          role="status"
          className="rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800"
          data-testid="front-page-done"
        >
          {done === "saved" ? fm.saved : fm.removed}
        </p>
      )}
      {refusal && (
        <p
          role="alert"
          className="rounded border border-brand-600/30 bg-brand-50 p-3 font-bold text-brand-700"
          data-testid="front-page-error"
        >
          {refusal.message}
        </p>
      )}

      <div className={panel}>
        <h2 className="text-xl font-bold">{fm.sliderHeading}</h2>
        <ol className="divide-y divide-stone-200" data-testid="front-page-slider">
          {Array.from({ length: SLIDER_COUNT }, (_, index) => {
            const slot = slideSlot(index + 1);
            const held = heldAt(slot);
            const shown = slider[index];
            const chosenShown = held && shown?.id === held.newsId;
            return (
              <Row
                key={slot}
                name={slideName(index + 1)}
                item={shown}
                until={chosenShown ? held.until : null}
                slot={held ? slot : null}
                testId={`slot-${index + 1}`}
              />
            );
          })}
        </ol>
      </div>

      <div className={panel}>
        <h2 className="text-xl font-bold">{fm.pinsHeading}</h2>
        {pins.length === 0 ? (
          <p className="py-3 text-stone-500">{fm.noPins}</p>
        ) : (
          <ul className="divide-y divide-stone-200" data-testid="front-page-pins">
            {pins.map(({ category, item }) => (
              <Row
                key={category}
                name={categoryLabel(category)}
                item={item}
                until={heldAt(pinSlot(category))?.until ?? null}
                slot={pinSlot(category)}
                testId={`pin-${category}`}
              />
            ))}
          </ul>
        )}
      </div>

      <div className={`${panel} space-y-4`}>
        <h2 className="text-xl font-bold">{fm.chooseHeading}</h2>
        <form method="get" className="flex flex-wrap items-end gap-2" role="search" data-testid="candidate-search">
          <div className="min-w-0 flex-1">
            <label htmlFor="q" className="mb-1 block font-bold">
              {fm.searchLabel}
            </label>
            <input id="q" name="q" type="search" defaultValue={query} maxLength={QUERY_MAX} className={input} />
          </div>
          <button type="submit" className={button}>
            {fm.searchButton}
          </button>
        </form>
        {candidates.length === 0 ? (
          <p className="text-stone-500">{fm.noCandidates}</p>
        ) : (
          <form method="post" className="space-y-4" data-testid="choose-form">
            <input type="hidden" name="intent" value="choose" />
            <FormField id="newsId" label={fm.articleLabel} error={errors.newsId}>
              <select
                id="newsId"
                name="newsId"
                required
                className={input}
                aria-invalid={errors.newsId ? true : undefined}
                aria-describedby={errors.newsId ? "newsId-error" : undefined}
              >
                {candidates.map((item) => (
                  <option key={item.id} value={item.id}>
                    {`${item.title} · ${categoryLabel(item.category)}${item.image && !item.isVideo ? "" : ` · ${fm.noPicture}`}`}
                  </option>
                ))}
              </select>
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="place" label={fm.placeLabel} error={errors.place}>
                <select
                  id="place"
                  name="place"
                  className={input}
                  aria-invalid={errors.place ? true : undefined}
                  aria-describedby={errors.place ? "place-error" : undefined}
                >
                  {Array.from({ length: SLIDER_COUNT }, (_, index) => (
                    <option key={index} value={String(index + 1)}>
                      {slideName(index + 1)}
                    </option>
                  ))}
                  <option value="pin">{fm.pinPlace}</option>
                </select>
              </FormField>
              <FormField id="until" label={fm.untilLabel} error={errors.until}>
                <input
                  id="until"
                  name="until"
                  type="datetime-local"
                  dir="ltr"
                  required
                  defaultValue={defaultUntil}
                  className={input}
                  aria-invalid={errors.until ? true : undefined}
                  aria-describedby={errors.until ? "until-error" : undefined}
                />
              </FormField>
            </div>
            <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-bold text-white hover:bg-brand-700">
              {fm.save}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
