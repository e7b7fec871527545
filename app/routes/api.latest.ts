import { LATEST_NEWS_COUNT } from "~/lib/constants";
import { audienceOf } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listLatest } from "~/server/news.server";

export async function loader({ request }: Route.LoaderArgs) {
  return { items: await listLatest(db(), { limit: LATEST_NEWS_COUNT, audience: await audienceOf(request) }) };
}
import type { Route } from "./+types/api.latest";
