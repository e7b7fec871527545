import { data } from "react-router";
import { messages } from "~/lib/messages";

export function loader() {
  throw data({ message: messages.pageNotFound }, 404);
}

export default function NotFound() {
  return null;
}
