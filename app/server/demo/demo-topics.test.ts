import { describe, expect, it } from "vitest";
import { demoArticles } from "./demo-articles";
import { demoTopicNames } from "./demo-topics";

describe("the demo's topics", () => {
  it("tag the stories that name the region's towns and running stories, at most four each", () => {
    const tagged = demoArticles.map((article) => ({ title: article.title, topics: demoTopicNames(article) }));
    const carrying = (name: string) => tagged.filter((article) => article.topics.includes(name)).length;
    for (const town of ["طرابلس", "المنية", "الضنية", "عكار"]) expect(carrying(town), town).toBeGreaterThanOrEqual(2);
    expect(carrying("العاصفة")).toBeGreaterThanOrEqual(2);
    expect(tagged.find((article) => article.title.includes("انقطاع التيار الكهربائي"))?.topics).toEqual([
      "المنية",
      "أزمة الكهرباء",
    ]);
    for (const article of tagged) expect(article.topics.length).toBeLessThanOrEqual(4);
  });
});
