import { LATEST_NEWS_COUNT } from "~/lib/constants";
import { db } from "~/server/db/db.server";
import { listLatest } from "~/server/news.server";

export async function loader() {
  return { items: await listLatest(db(), { limit: LATEST_NEWS_COUNT }) };
}
