import { useEffect, useRef, useState, type MutableRefObject, type RefObject } from "react";
import { useBlocker } from "react-router";
import { LOCALE, TIME_ZONE } from "~/lib/constants";
import { errorOf } from "~/lib/error-body";
import { conflictMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { currentOfConflict, type SavedStory } from "~/lib/edit-conflict";
import { isEmptyDocument, parseRichDocument } from "~/lib/rich-text/document";
import {
  ARTICLE_TEXT_FIELDS,
  AUTOSAVED_FIELDS,
  copyFields,
  heldValues,
  type ArticleFormField,
} from "~/lib/article-form-fields";

/** Whether the form's body (the editor's document as JSON) has anything to keep. */
function hasText(json: string): boolean {
  const document = parseRichDocument(json);
  return document !== null && !isEmptyDocument(document);
}

/** How often a changed form is saved into its draft. */
export const AUTOSAVE_EVERY_MS = 3_000;

type Phase = "idle" | "saving" | "saved" | "failed" | "off" | "conflict";
export type Autosave = {
  /** The draft the form saves into: the edited article, or the one its first autosave created. */
  draftId: string | null;
  phase: Phase;
  savedAt: string | null;
  /** The form was submitted and saved: leaving now loses nothing. */
  markSaved: () => void;
  /** Before a submit: pauses autosave and waits for a save under way, so the submit knows the draft it made. */
  pause: () => Promise<string | null>;
  /** After a submit that failed: autosave goes on. */
  resume: () => void;
};

/**
 * Saves the form's autosaved fields (lib/article-form-fields.ts) every few seconds while they change
 * into its draft (only when `enabled`: a new article, or a draft), and warns before leaving while any
 * field holds what no save has stored (the submit's choices and files until the form is submitted): on
 * closing or reloading the tab (beforeunload) and on navigating inside the site (React Router's blocker).
 */
type AutosaveOptions = {
  articleId: string | null;
  enabled: boolean;
  submissionId?: string;
  /** The version each save is based on; a save sets it to the draft's new version. */
  baseVersion: MutableRefObject<number | undefined>;
  /** Another save of the draft came first: autosave stops, and the form shows the conflict (with the draft as saved now, when the refusal carried it). */
  onConflict: (draftId: string, current?: SavedStory) => void;
};

export function useAutosave(form: RefObject<HTMLFormElement | null>, options: AutosaveOptions): Autosave {
  const [draftId, setDraftId] = useState(options.articleId);
  const [phase, setPhase] = useState<Phase>(options.enabled ? "idle" : "off");
  const [savedAt, setSavedAt] = useState<string | null>(null);
  // What the saves have stored, field by field: at first what the form opened with.
  const stored = useRef<Map<ArticleFormField, string> | null>(null);
  const draft = useRef(options.articleId);
  const running = useRef(options.enabled);
  const saving = useRef(false);
  const lastSave = useRef<Promise<void>>(Promise.resolve());
  const held = () => (form.current ? heldValues(new FormData(form.current)) : null);
  const differs = (now: Map<ArticleFormField, string> | null, fields: Iterable<ArticleFormField>) => {
    if (!now || !stored.current) return false;
    for (const name of fields) if (now.get(name) !== stored.current.get(name)) return true;
    return false;
  };
  const isDirty = () => {
    const now = held();
    return differs(now, now?.keys() ?? []);
  };
  // The warning on closing the tab listens only while something may be unsaved. It is kept without state:
  // a render of the form inside one of its fields' input events would put a controlled field (the
  // topics' combobox) back to its old value before React hears of the change, and lose the keystroke.
  const [warn] = useState(() => (event: BeforeUnloadEvent) => {
    if (!isDirty()) return;
    event.preventDefault();
    event.returnValue = "";
  });
  const warnWhileUnsaved = () => {
    if (isDirty()) window.addEventListener("beforeunload", warn);
    else window.removeEventListener("beforeunload", warn);
  };
  useEffect(() => () => window.removeEventListener("beforeunload", warn), [warn]);

  useEffect(() => {
    const element = form.current;
    if (!element) return;
    stored.current = held();
    // A change may be unsaved: the warning listens, and decides when the tab closes (comparing every keystroke would cost the typing).
    const changed = () => window.addEventListener("beforeunload", warn);
    element.addEventListener("input", changed);
    element.addEventListener("change", changed);
    return () => {
      element.removeEventListener("input", changed);
      element.removeEventListener("change", changed);
    };
    // Once per form: held and warn read only refs, and a run per render would forget what was last saved.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form]);

  useEffect(() => {
    if (!options.enabled) return;
    const save = async () => {
      const element = form.current;
      if (!element || saving.current || !running.current) return;
      const fields = new FormData(element);
      const sent = heldValues(fields);
      if (!differs(sent, AUTOSAVED_FIELDS)) return;
      const body = copyFields(fields, new FormData(), AUTOSAVED_FIELDS);
      // A title and a text are needed before there is a draft worth keeping.
      if (!String(body.get("title") ?? "").trim() || !hasText(String(body.get("body") ?? ""))) return;
      if (draft.current) body.set("id", draft.current);
      if (draft.current && options.baseVersion.current !== undefined)
        body.set("baseVersion", String(options.baseVersion.current));
      else if (options.submissionId) body.set("submissionId", options.submissionId);
      saving.current = true;
      setPhase("saving");
      try {
        const response = await fetch("/api/news/autosave", {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
        });
        const json = (await response.json().catch(() => null)) as {
          id?: string;
          savedAt?: string;
          version?: number;
        } | null;
        if (response.status === 409 && errorOf(json)?.code === "edit-conflict" && draft.current) {
          running.current = false;
          setPhase("conflict");
          options.onConflict(draft.current, currentOfConflict(json));
          return;
        }
        if (!response.ok || !json?.id || !json.savedAt) {
          // Refused (no longer a draft, not allowed, bad text): stop; a failure of the server or network: try again.
          if (response.status >= 400 && response.status < 500 && response.status !== 429) running.current = false;
          setPhase("failed");
          return;
        }
        draft.current = json.id;
        setDraftId(json.id);
        if (typeof json.version === "number") options.baseVersion.current = json.version;
        for (const name of AUTOSAVED_FIELDS) stored.current?.set(name, sent.get(name) ?? "");
        warnWhileUnsaved();
        setSavedAt(json.savedAt);
        setPhase("saved");
      } catch {
        setPhase("failed");
      } finally {
        saving.current = false;
      }
    };
    const timer = window.setInterval(() => {
      lastSave.current = lastSave.current.then(save);
    }, AUTOSAVE_EVERY_MS);
    return () => window.clearInterval(timer);
    // options.baseVersion is a ref and onConflict only sets the form's state: neither restarts the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, options.enabled, options.submissionId]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => isDirty() && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(newsroomMessages.unsavedChangesWarning)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

  const markSaved = () => {
    stored.current = held();
    warnWhileUnsaved();
  };
  const pause = async () => {
    running.current = false;
    await lastSave.current;
    return draft.current;
  };
  const resume = () => {
    running.current = options.enabled;
  };
  return { draftId, phase, savedAt, markSaved, pause, resume };
}

const clock = new Intl.DateTimeFormat(LOCALE, { timeStyle: "short", timeZone: TIME_ZONE });

/** The quiet line under the form: saved automatically at what time, saving, failed, or off for this article. */
export function AutosaveStatus({ autosave }: { autosave: Autosave }) {
  const { phase, savedAt } = autosave;
  const text =
    phase === "off"
      ? newsroomMessages.autosaveOffPublished
      : phase === "conflict"
        ? conflictMessages.autosaveStopped
        : phase === "saving"
          ? newsroomMessages.autosaving
          : phase === "failed"
            ? newsroomMessages.autosaveFailed
            : savedAt
              ? `${newsroomMessages.autosaved} ${clock.format(new Date(savedAt))}`
              : "";
  return (
    <p aria-live="polite" className="min-h-5 text-sm text-stone-500" data-testid="autosave-status" data-phase={phase}>
      {text}
    </p>
  );
}

/** Opens the article as readers would see it, from the form's current (unsaved) fields, in a new tab; nothing is saved. */
export function PreviewButton({
  form,
  articleId,
  className = "",
}: {
  form: RefObject<HTMLFormElement | null>;
  articleId: string | null;
  className?: string;
}) {
  const open = () => {
    const source = form.current;
    if (!source) return;
    const fields = new FormData(source);
    const target = document.createElement("form");
    Object.assign(target, {
      method: "post",
      action: "/dashboard/preview",
      target: "_blank",
      enctype: "multipart/form-data",
      hidden: true,
    });
    const add = (name: string, value: string) => {
      const input = document.createElement("textarea");
      input.name = name;
      input.value = value;
      target.append(input);
    };
    for (const name of ARTICLE_TEXT_FIELDS)
      for (const value of fields.getAll(name)) if (typeof value === "string") add(name, value);
    if (articleId) add("id", articleId);
    document.body.append(target);
    target.submit();
    target.remove();
  };
  return (
    <button type="button" onClick={open} className={className}>
      {newsroomMessages.preview}
    </button>
  );
}
