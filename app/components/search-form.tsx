import { Form } from "react-router";
import { messages } from "~/lib/messages";
import { MAX_QUERY_LENGTH } from "~/lib/search/search-terms";
import { SearchIcon } from "./icons";

export function SearchForm({ id, defaultValue = "", className = "" }: { id: string; defaultValue?: string; className?: string }) {
  return (
    <Form method="get" action="/search" role="search" className={`flex items-stretch ${className}`}>
      <label htmlFor={id} className="sr-only">
        {messages.search}
      </label>
      <input
        id={id}
        name="query"
        type="search"
        defaultValue={defaultValue}
        maxLength={MAX_QUERY_LENGTH}
        placeholder={messages.searchPlaceholder}
        className="min-w-0 flex-1 rounded-s border border-stone-300 bg-white px-3 py-1.5 text-ink placeholder:text-stone-500"
      />
      <button type="submit" className="rounded-e bg-brand-600 px-3 text-white hover:bg-brand-700" aria-label={messages.search}>
        <SearchIcon />
      </button>
    </Form>
  );
}
