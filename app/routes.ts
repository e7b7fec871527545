import { index, route, type RouteConfig } from "@react-router/dev/routes";

// SPEC.md §2, one line per route. Category and information pages share a module each.
export default [
  index("routes/home.tsx"),
  route("local", "routes/category.tsx", { id: "category-local" }),
  route("international", "routes/category.tsx", { id: "category-international" }),
  route("sports", "routes/category.tsx", { id: "category-sports" }),
  route("educatonal", "routes/category.tsx", { id: "category-educational" }),
  route("educational", "routes/educational-redirect.ts"),
  route("miscellaneous", "routes/category.tsx", { id: "category-miscellaneous" }),
  route("advertisement", "routes/category.tsx", { id: "category-advertisement" }),
  route("breaking", "routes/breaking.tsx"),
  route("news/:id", "routes/news.tsx"),
  route("search", "routes/search.tsx"),
  route("autenction", "routes/autenction.tsx"),
  route("sign-out", "routes/sign-out.ts"),
  route("dashboard", "routes/dashboard.tsx"),
  route("who", "routes/info.tsx", { id: "info-who" }),
  route("contact", "routes/info.tsx", { id: "info-contact" }),
  route("privacy", "routes/info.tsx", { id: "info-privacy" }),
  route("development", "routes/info.tsx", { id: "info-development" }),
  route("api/news/:id/visit", "routes/api.news-visit.ts"),
  route("api/site-visit", "routes/api.site-visit.ts"),
  route("api/latest", "routes/api.latest.ts"),
  route(":shortId", "routes/short-link.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
