import type { CSSProperties, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { newsletterMessages as m } from "~/lib/messages";

/*
 * The newsletter mail as mail programs read it (Gmail, Outlook, Apple Mail): a table layout with inline
 * styles, right to left, images at absolute addresses with their alt text, and a plain-text part. It
 * is rendered once per sending; each recipient's own token replaces TOKEN_SLOT in both parts.
 */

/** Where each recipient's link token goes; nothing else in a mail can read so. */
export const TOKEN_SLOT = "__subscriber_token__";

export type MailStory = { title: string; excerpt: string; url: string; image: string | null; label: string };

export type MailContent = {
  kind: "brief" | "breaking";
  siteName: string;
  siteUrl: string;
  logo: string | null;
  /** The day as readers read it, e.g. "الأحد 29 تشرين الثاني 2026". */
  dateLine: string;
  opening: string;
  stories: MailStory[];
  preferencesUrl: string;
  unsubscribeUrl: string;
};

export type RenderedMail = { subject: string; html: string; text: string };

const FONT = "Tahoma, 'Segoe UI', Arial, sans-serif";
const BRAND = "#b91c1c";
const page: CSSProperties = { margin: 0, padding: 0, backgroundColor: "#f5f5f4", width: "100%" };
const card: CSSProperties = {
  width: "100%",
  maxWidth: "600px",
  backgroundColor: "#ffffff",
  borderCollapse: "collapse",
};
const cell = (style: CSSProperties): CSSProperties => ({
  fontFamily: FONT,
  textAlign: "right",
  direction: "rtl",
  ...style,
});

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function Row({ children, style }: { children: ReactNode; style: CSSProperties }) {
  return (
    <tr>
      <td style={cell(style)}>{children}</td>
    </tr>
  );
}

function Story({ story, lead }: { story: MailStory; lead: boolean }) {
  return (
    <Row style={{ padding: "16px 24px", borderTop: "1px solid #e7e5e4" }}>
      {story.image ? (
        <a href={story.url} style={{ display: "block", marginBottom: "12px" }}>
          <img
            src={story.image}
            alt={story.title}
            width={552}
            style={{
              display: "block",
              width: "100%",
              maxWidth: "552px",
              height: "auto",
              border: 0,
              borderRadius: "6px",
            }}
          />
        </a>
      ) : null}
      <p style={{ margin: "0 0 4px", fontSize: "13px", color: BRAND, fontWeight: "bold" }}>{story.label}</p>
      <h2 style={{ margin: "0 0 8px", fontSize: lead ? "22px" : "18px", lineHeight: 1.5 }}>
        <a href={story.url} style={{ color: "#1c1917", textDecoration: "none" }}>
          {story.title}
        </a>
      </h2>
      {story.excerpt ? (
        <p style={{ margin: "0 0 8px", fontSize: "15px", lineHeight: 1.8, color: "#44403c" }}>{story.excerpt}</p>
      ) : null}
      <a href={story.url} style={{ fontSize: "14px", color: BRAND, fontWeight: "bold" }}>
        {`${m.readMore} ←`}
      </a>
    </Row>
  );
}

function Mail({ content }: { content: MailContent }) {
  const heading = content.kind === "brief" ? m.mailHeading : m.mailBreakingHeading;
  return (
    <html lang="ar" dir="rtl">
      <head>
        <meta httpEquiv="Content-Type" content="text/html; charset=utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${heading} | ${content.siteName}`}</title>
      </head>
      <body dir="rtl" style={page}>
        <table role="presentation" dir="rtl" width="100%" cellPadding={0} cellSpacing={0} style={page}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "16px 8px" }}>
                <table role="presentation" dir="rtl" width="600" cellPadding={0} cellSpacing={0} style={card}>
                  <tbody>
                    <Row style={{ padding: "20px 24px", backgroundColor: "#1c1917", color: "#ffffff" }}>
                      <a href={content.siteUrl} style={{ color: "#ffffff", textDecoration: "none" }}>
                        {content.logo ? (
                          <img
                            src={content.logo}
                            alt={content.siteName}
                            height={40}
                            style={{ display: "block", height: "40px", width: "auto", border: 0 }}
                          />
                        ) : (
                          <span style={{ fontSize: "24px", fontWeight: "bold" }}>{content.siteName}</span>
                        )}
                      </a>
                      <p style={{ margin: "8px 0 0", fontSize: "14px", color: "#d6d3d1" }}>
                        {`${heading} · ${content.dateLine}`}
                      </p>
                    </Row>
                    {content.opening ? (
                      <Row style={{ padding: "20px 24px 8px", fontSize: "16px", lineHeight: 1.8, color: "#1c1917" }}>
                        {content.opening.split(/\n+/).map((line, i) => (
                          <p key={i} style={{ margin: "0 0 8px" }}>
                            {line}
                          </p>
                        ))}
                      </Row>
                    ) : null}
                    {content.stories.map((story, i) => (
                      <Story key={story.url} story={story} lead={i === 0} />
                    ))}
                    <Row
                      style={{
                        padding: "20px 24px",
                        backgroundColor: "#fafaf9",
                        borderTop: "1px solid #e7e5e4",
                        fontSize: "13px",
                        lineHeight: 1.8,
                        color: "#57534e",
                      }}
                    >
                      <p style={{ margin: "0 0 8px" }}>{fill(m.mailFooter, { site: content.siteName })}</p>
                      <p style={{ margin: 0 }}>
                        <a href={content.preferencesUrl} style={{ color: "#57534e" }}>
                          {m.mailPreferences}
                        </a>
                        {" · "}
                        <a href={content.unsubscribeUrl} style={{ color: "#57534e" }}>
                          {m.mailUnsubscribe}
                        </a>
                      </p>
                    </Row>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

function plainText(content: MailContent, heading: string): string {
  const lines = [`${content.siteName} — ${heading}`, content.dateLine, ""];
  if (content.opening) lines.push(content.opening, "");
  for (const story of content.stories) {
    lines.push(`■ ${story.title}`);
    if (story.excerpt) lines.push(story.excerpt);
    lines.push(story.url, "");
  }
  lines.push(
    "—",
    fill(m.mailFooter, { site: content.siteName }),
    `${m.mailPreferences}: ${content.preferencesUrl}`,
    `${m.mailUnsubscribe}: ${content.unsubscribeUrl}`,
  );
  return lines.join("\n");
}

export function renderMail(content: MailContent): RenderedMail {
  const heading = content.kind === "brief" ? m.mailHeading : m.mailBreakingHeading;
  const title = content.stories[0]?.title ?? heading;
  return {
    subject: fill(content.kind === "brief" ? m.briefSubject : m.breakingSubject, { site: content.siteName, title }),
    html: `<!DOCTYPE html>${renderToStaticMarkup(<Mail content={content} />)}`,
    text: plainText(content, heading),
  };
}
