import { Form } from "react-router";
import { messages } from "~/lib/messages";
import { MAX_QUERY_LENGTH } from "~/lib/search/search-terms";
import { SearchIcon } from "./icons";

export function SearchForm({
  id,
  defaultValue = "",
  className = "",
}: {
  id: string;
  defaultValue?: string;
  className?: string;
}) {
  return (
    <Form discover="none" method="get" action="/search" role="search" className={`flex items-stretch ${className}`}>
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
        className="search-input"
      />
      <button type="submit" className="search-button" aria-label={messages.search}>
        <SearchIcon />
      </button>
    </Form>
  );
}
