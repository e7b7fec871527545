import { useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { topicMessages } from "~/lib/newsroom-messages";
import {
  cleanTopicName,
  joinTopicNames,
  MAX_TOPICS_PER_ARTICLE,
  topicKey,
  TOPICS_FIELD_MAX,
  type Topic,
} from "~/lib/topics";

type Props = {
  /** The article's topics' names, in order. */
  names: readonly string[];
  /** Editors and admins create topics as they write; authors pick existing ones. */
  mayCreate: boolean;
  error?: string;
  className: string;
};

/** One row of the suggestions: an existing topic, or (editors) the typed name as a new one. */
type Option = { name: string; isNew: boolean };

const SUGGEST_DELAY_MS = 150;

function useSuggestions(typed: string): Topic[] {
  const [topics, setTopics] = useState<Topic[]>([]);
  useEffect(() => {
    if (topicKey(typed) === "") {
      setTopics([]);
      return;
    }
    const aborted = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        const response = await fetch(`/api/topics?q=${encodeURIComponent(typed)}`, {
          signal: aborted.signal,
          headers: { Accept: "application/json" },
        });
        if (response.ok) setTopics(((await response.json()) as { topics: Topic[] }).topics);
      } catch {
        // Aborted by the next keystroke, or offline: the field still takes typed names.
      }
    }, SUGGEST_DELAY_MS);
    return () => {
      aborted.abort();
      window.clearTimeout(timer);
    };
  }, [typed]);
  return topics;
}

/**
 * The article's topics. Without JavaScript, a text field of names separated by commas; with it, the
 * same field (hidden) kept by chips and a combobox that suggests existing topics as one types,
 * spellings folded as search folds them ("المنيه" finds "المنية").
 */
export function TopicField({ names, mayCreate, error, className }: Props) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const hint = mayCreate ? topicMessages.fieldHint : topicMessages.fieldHintAuthor;
  const describedBy = [error ? "topics-error" : null, "topics-hint"].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={enhanced ? "topics-input" : "topics"} className="mb-1 block font-bold">
        {topicMessages.field}
      </label>
      {enhanced ? (
        <TopicChips
          initial={names}
          mayCreate={mayCreate}
          className={className}
          describedBy={describedBy}
          invalid={Boolean(error)}
        />
      ) : (
        <input
          id="topics"
          name="topics"
          maxLength={TOPICS_FIELD_MAX}
          defaultValue={joinTopicNames(names)}
          className={className}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
      <p id="topics-hint" className="mt-1 text-sm text-stone-500">
        {hint}
      </p>
      {error && (
        <p id="topics-error" className="mt-1 text-sm font-bold text-brand-700">
          {error}
        </p>
      )}
    </div>
  );
}

function TopicChips({
  initial,
  mayCreate,
  className,
  describedBy,
  invalid,
}: {
  initial: readonly string[];
  mayCreate: boolean;
  className: string;
  describedBy: string;
  invalid: boolean;
}) {
  const [chosen, setChosen] = useState<string[]>([...initial]);
  const [typed, setTypedState] = useState("");
  // What is typed now, for the submit's commit: a render may not have caught up with the last keystroke.
  const pending = useRef("");
  const setTyped = (text: string) => {
    pending.current = text;
    setTypedState(text);
  };
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const hidden = useRef<HTMLInputElement>(null);
  const first = useRef(true);
  const listId = useId();
  const suggestions = useSuggestions(typed);
  const chosenKeys = new Set(chosen.map(topicKey));
  const typedKey = topicKey(typed);
  const options: Option[] = suggestions
    .filter((topic) => !chosenKeys.has(topicKey(topic.name)))
    .map((topic) => ({ name: topic.name, isNew: false }));
  const exists = suggestions.some((topic) => topicKey(topic.name) === typedKey);
  if (mayCreate && typedKey !== "" && !exists && !chosenKeys.has(typedKey))
    options.push({ name: cleanTopicName(typed), isNew: true });
  const full = chosen.length >= MAX_TOPICS_PER_ARTICLE;
  const shown = open && options.length > 0 && !full;

  // Autosave and the leave warning listen for the form's change events; a chip added or removed is one.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    hidden.current?.dispatchEvent(new Event("change", { bubbles: true }));
  }, [chosen]);

  function choose(option: Option | undefined) {
    if (!option || full) return;
    setChosen((list) =>
      list.some((name) => topicKey(name) === topicKey(option.name)) ? list : [...list, option.name],
    );
    setTyped("");
    setActive(0);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((index) => (options.length === 0 ? 0 : (index + step + options.length) % options.length));
    } else if (event.key === "Enter" || event.key === "," || event.key === "،") {
      if (typedKey === "" && event.key === "Enter") return;
      event.preventDefault();
      choose(shown ? options[active] : options.find((option) => topicKey(option.name) === typedKey));
    } else if (event.key === "Escape") {
      setOpen(false);
    } else if (event.key === "Backspace" && typed === "" && chosen.length > 0) {
      setChosen((list) => list.slice(0, -1));
    }
  }

  // Only chosen names are in the field (autosave reads it every few seconds: half a word typed is no
  // topic); a name still typed when the form is sent becomes one first, and the server judges it.
  useEffect(() => {
    const form = hidden.current?.form;
    if (!form) return;
    const commit = () => {
      const name = cleanTopicName(pending.current);
      if (topicKey(name) === "") return;
      flushSync(() => {
        setChosen((list) => (list.some((other) => topicKey(other) === topicKey(name)) ? list : [...list, name]));
        setTyped("");
      });
    };
    // Capturing: before the form's own submit handler reads its fields.
    form.addEventListener("submit", commit, true);
    return () => form.removeEventListener("submit", commit, true);
  }, []);
  const value = joinTopicNames(chosen);
  return (
    <div className="relative" data-testid="topic-field">
      <input ref={hidden} type="hidden" name="topics" value={value} />
      <div className={`${className} flex flex-wrap items-center gap-2`} aria-invalid={invalid ? true : undefined}>
        {chosen.length > 0 && (
          <ul className="contents" aria-label={topicMessages.field}>
            {chosen.map((name) => (
              <li
                key={name}
                className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 ps-3 pe-1 text-sm font-bold"
                data-testid="topic-chip"
              >
                {name}
                <button
                  type="button"
                  onClick={() => setChosen((list) => list.filter((other) => other !== name))}
                  className="grid size-6 place-items-center rounded-full text-stone-500 hover:bg-stone-200 hover:text-brand-700"
                  aria-label={`${topicMessages.remove}: ${name}`}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id="topics-input"
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown ? `${listId}-${active}` : undefined}
          aria-describedby={describedBy}
          aria-label={topicMessages.inputLabel}
          autoComplete="off"
          value={typed}
          disabled={full}
          maxLength={TOPICS_FIELD_MAX}
          onChange={(event) => {
            setTyped(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="min-w-32 flex-1 border-0 bg-transparent p-1 outline-none"
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={topicMessages.suggestions}
        hidden={!shown}
        className="absolute inset-x-0 top-full z-20 mt-1 max-h-64 overflow-auto rounded border border-stone-300 bg-white shadow-lg"
      >
        {options.map((option, index) => (
          <li
            key={`${option.isNew}-${option.name}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            // Chosen before the field loses focus (which closes the list).
            onMouseDown={(event) => {
              event.preventDefault();
              choose(option);
            }}
            className="cursor-pointer px-3 py-2 aria-selected:bg-brand-50 aria-selected:text-brand-800"
          >
            {option.isNew ? `${topicMessages.newTopic}: «${option.name}»` : option.name}
          </li>
        ))}
      </ul>
    </div>
  );
}
