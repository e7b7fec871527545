import { data } from "react-router";
import { LATEST_NEWS_COUNT } from "~/lib/constants";
import { CACHE } from "~/server/http-cache.server";
import { audienceOf } from "~/server/auth.server";
import { db } from "~/server/db/db.server";
import { listLatest } from "~/server/news.server";

export async function loader({ request }: Route.LoaderArgs) {
  const audience = await audienceOf(request);
  const items = await listLatest(db(), { limit: LATEST_NEWS_COUNT, audience });
  return data({ items }, { headers: { "Cache-Control": audience.includeDrafts ? CACHE.personal : CACHE.publicPage } });
}
import type { Route } from "./+types/api.latest";
