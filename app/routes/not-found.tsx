import { data } from "react-router";
import { messages } from "~/lib/messages";

export function loader() {
  throw data({ message: messages.pageNotFound }, 404);
}

export function meta() {
  return [{ title: `${messages.pageNotFound} | ${messages.siteName}` }, { name: "robots", content: "noindex" }];
}

export default function NotFound() {
  return null;
}
