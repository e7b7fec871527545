import { useEffect, useState } from "react";
import { categoryLabel, PICK_CATEGORIES, type Category } from "~/lib/categories";
import { alertBellMessages as text } from "~/lib/alert-bell-messages";
import { island } from "~/islands/island";
import { BellIcon } from "../icons";
import type { BellState } from "./push-client";

/** Where a bell stands: the ticker shows the icon alone, the menu opens its panel in place. */
type Place = "page" | "ticker" | "menu";

type Note = keyof Pick<typeof text, "saved" | "stopped" | "failed" | "denied" | "chooseCategory">;

const pushClient = () => import("./push-client");

type ChoicesProps = {
  state: Extract<BellState, { kind: "on" | "off" }>;
  busy: boolean;
  onDone: (work: "subscribe" | "unsubscribe", categories: Category[]) => void;
  onNoCategory: () => void;
};

function Choices({ state, busy, onDone, onNoCategory }: ChoicesProps) {
  const [chosen, setChosen] = useState<Category[]>(state.kind === "on" ? state.categories : []);
  const [withCategories, setWithCategories] = useState(chosen.length > 0);
  const toggle = (category: Category) =>
    setChosen((now) => (now.includes(category) ? now.filter((c) => c !== category) : [...now, category]));
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const categories = withCategories ? PICK_CATEGORIES.filter((c) => chosen.includes(c)) : [];
        if (withCategories && categories.length === 0) onNoCategory();
        else onDone("subscribe", categories);
      }}
    >
      <fieldset className="space-y-1">
        <legend className="sr-only">{text.panelTitle}</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="alert-scope" checked={!withCategories} onChange={() => setWithCategories(false)} />
          {text.breakingOnly}
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="alert-scope" checked={withCategories} onChange={() => setWithCategories(true)} />
          {text.withCategories}
        </label>
      </fieldset>
      {withCategories && (
        <fieldset className="grid grid-cols-2 gap-1 ps-6">
          <legend className="sr-only">{text.categoriesLegend}</legend>
          {PICK_CATEGORIES.map((category) => (
            <label key={category} className="flex items-center gap-2">
              <input type="checkbox" checked={chosen.includes(category)} onChange={() => toggle(category)} />
              {categoryLabel(category)}
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="alert-bell-action" disabled={busy}>
          {state.kind === "on" ? text.save : text.subscribe}
        </button>
        {state.kind === "on" && (
          <button
            type="button"
            className="alert-bell-secondary"
            disabled={busy}
            onClick={() => onDone("unsubscribe", [])}
          >
            {text.unsubscribe}
          </button>
        )}
      </div>
    </form>
  );
}

function StateText({ state }: { state: BellState }) {
  switch (state.kind) {
    case "checking":
      return <p>{text.working}</p>;
    case "unsupported":
      return <p>{text.stateUnsupported}</p>;
    case "blocked":
      return <p>{text.stateBlocked}</p>;
    case "ios-install":
      return (
        <div data-testid="alert-bell-ios">
          <p className="font-bold">{text.iosTitle}</p>
          <p>{text.iosSteps[0]}</p>
          <ol className="list-[arabic-indic] ps-5">
            {text.iosSteps.slice(1).map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      );
    case "on":
      return <p>{text.stateSubscribed}</p>;
    case "off":
      return <p>{text.stateNotSubscribed}</p>;
  }
}

/** "نبّهني بالأخبار العاجلة": the panel where a reader turns breaking-news alerts on, changes them or stops them. */
function Bell({ place }: { place: Place }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<BellState>({ kind: "checking" });
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note | null>(null);
  const [live, setLive] = useState(false);
  const panelId = `alert-bell-${place}`;

  // Drawn once hydrated: before that it could do nothing, and the pages it is on keep their HTML small.
  useEffect(() => setLive(true), []);

  useEffect(() => {
    if (!open) return;
    let current = true;
    void pushClient()
      .then(({ bellState }) => bellState())
      .then(
        (found) => current && setState(found),
        () => current && setState({ kind: "unsupported" }),
      );
    return () => {
      current = false;
    };
  }, [open]);

  const run = (work: "subscribe" | "unsubscribe", categories: Category[]) => {
    setBusy(true);
    setNote(null);
    void pushClient()
      .then((client) => (work === "subscribe" ? client.subscribe(categories) : client.unsubscribe()))
      .then(
        (next) => {
          setState(next);
          if (work === "unsubscribe") setNote("stopped");
          else setNote(next.kind === "on" ? "saved" : next.kind === "blocked" ? "denied" : null);
        },
        () => setNote("failed"),
      )
      .finally(() => setBusy(false));
  };

  // A note answers the last choice made in the panel: opened again, the panel starts without it.
  const openPanel = (next: boolean) => {
    setOpen(next);
    if (next) setNote(null);
  };

  if (!live) return null;
  return (
    <div className="alert-bell" data-place={place}>
      <button
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={place === "ticker" ? text.bell : undefined}
        onClick={() => openPanel(!open)}
      >
        <BellIcon />
        {place !== "ticker" && <span>{text.bell}</span>}
      </button>
      {open && (
        <div
          id={panelId}
          className="alert-bell-panel"
          role="region"
          aria-label={text.panelTitle}
          data-state={state.kind}
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <h2 className="font-bold">{text.panelTitle}</h2>
            <button type="button" className="text-sm text-stone-600 underline" onClick={() => setOpen(false)}>
              {text.close}
            </button>
          </div>
          <StateText state={state} />
          {(state.kind === "on" || state.kind === "off") && (
            <Choices
              key={state.kind}
              state={state}
              busy={busy}
              onDone={run}
              onNoCategory={() => setNote("chooseCategory")}
            />
          )}
          <p role="status" className="mt-2 text-sm font-bold text-brand-700">
            {busy ? text.working : note === null ? "" : text[note]}
          </p>
        </div>
      )}
    </div>
  );
}

// One island per place, each without props: the ticker's and the menu's are on every reader page.
export const AlertBell = island("bell", () => <Bell place="page" />);
export const TickerAlertBell = island("bell-ticker", () => <Bell place="ticker" />);
export const MenuAlertBell = island("bell-menu", () => <Bell place="menu" />);
