import { expect, it } from "vitest";
import { renderMail, TOKEN_SLOT, type MailStory } from "./mail-content.server";

const story = (i: number): MailStory => ({
  title: `عنوان الخبر رقم ${i} في نشرة الصباح`,
  excerpt: "نص ".repeat(70).trim(),
  url: `https://news.example/news/${i}?utm_source=newsletter`,
  image: `https://news.example/media/${i}.webp`,
  label: "أخبار محلية",
});

it("renders a brief of twenty stories right to left, each image absolute with its alt, under Gmail's 100 KB", () => {
  const mail = renderMail({
    kind: "brief",
    siteName: "أخبار البلدة",
    siteUrl: "https://news.example/?utm_source=newsletter",
    logo: "https://news.example/media/logo.png",
    dateLine: "٢٩ تشرين الثاني ٢٠٢٦",
    opening: "صباح الخير.",
    stories: Array.from({ length: 20 }, (_, i) => story(i)),
    preferencesUrl: `https://news.example/newsletter/preferences?t=${TOKEN_SLOT}`,
    unsubscribeUrl: `https://news.example/newsletter/preferences?t=${TOKEN_SLOT}#unsubscribe`,
  });
  expect(Buffer.byteLength(mail.html) + Buffer.byteLength(mail.text)).toBeLessThan(100 * 1024);
  expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="ar" dir="rtl">/);
  expect(mail.html).toContain('<img src="https://news.example/media/3.webp" alt="عنوان الخبر رقم 3 في نشرة الصباح"');
  expect(mail.html).not.toMatch(/<img(?![^>]*\balt=)/);
  expect(mail.html).not.toContain("<script");
  expect(mail.subject).toBe("النشرة الصباحية من أخبار البلدة: عنوان الخبر رقم 0 في نشرة الصباح");
  expect(mail.text).toContain("https://news.example/news/7?utm_source=newsletter");
  expect(mail.text.split(TOKEN_SLOT)).toHaveLength(3);
});
