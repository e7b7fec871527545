import type { ReactNode } from "react";
import { revisionMessages as m } from "~/lib/newsroom-messages";
import { hasMediaChanges, type Comparison, type MediaChanges } from "~/lib/story-version";
import { changed, type DiffPart } from "~/lib/word-diff";
import { DiffText } from "./diff-text";
import { RemovedImage, useIsRemoved } from "./removed-media";

const isVideo = (url: string) => url.includes("/news-videos/");

/** A stored picture small, or a video's name: what the media list shows for each. */
export function MediaThumb({ url }: { url: string }) {
  const removed = useIsRemoved(url);
  if (isVideo(url))
    return (
      <span className="break-all text-sm">
        🎬 <bdi dir="ltr">{url.split("/").at(-1)}</bdi>
      </span>
    );
  if (removed) return <RemovedImage className="h-16 w-40" />;
  return <img src={url} alt="" loading="lazy" className="h-16 w-24 rounded object-cover ring-1 ring-stone-300" />;
}

function MediaItem({ label, url, tone }: { label: string; url: string | null; tone: "added" | "removed" | "changed" }) {
  const colour = tone === "added" ? "text-green-800" : tone === "removed" ? "text-red-800" : "text-stone-800";
  return (
    <li className="flex flex-wrap items-center gap-3 py-2" data-testid={`media-${tone}`}>
      <span className={`font-bold ${colour}`}>{label}</span>
      {url ? <MediaThumb url={url} /> : <span className="text-stone-600">{m.coverNone}</span>}
    </li>
  );
}

function MediaList({ media }: { media: MediaChanges }) {
  if (!hasMediaChanges(media)) return <p className="text-stone-600">{m.compareNoMedia}</p>;
  return (
    <ul className="divide-y divide-stone-200" data-testid="media-changes">
      {media.cover ? (
        <li className="flex flex-wrap items-center gap-3 py-2" data-testid="media-cover">
          <span className="font-bold">{m.coverChanged}</span>
          {media.cover.from ? (
            <MediaThumb url={media.cover.from} />
          ) : (
            <span className="text-stone-600">{m.coverNone}</span>
          )}
          <span aria-hidden="true">←</span>
          {media.cover.to ? <MediaThumb url={media.cover.to} /> : <span className="text-stone-600">{m.coverNone}</span>}
        </li>
      ) : null}
      {media.imagesAdded.map((url) => (
        <MediaItem key={`a${url}`} label={m.imageAdded} url={url} tone="added" />
      ))}
      {media.imagesRemoved.map((url) => (
        <MediaItem key={`r${url}`} label={m.imageRemoved} url={url} tone="removed" />
      ))}
      {media.bodyImagesAdded.map((url) => (
        <MediaItem key={`ba${url}`} label={m.imageAdded} url={url} tone="added" />
      ))}
      {media.bodyImagesRemoved.map((url) => (
        <MediaItem key={`br${url}`} label={m.imageRemoved} url={url} tone="removed" />
      ))}
      {media.videoAdded ? <MediaItem label={m.videoAdded} url={media.videoAdded} tone="added" /> : null}
      {media.videoRemoved ? <MediaItem label={m.videoRemoved} url={media.videoRemoved} tone="removed" /> : null}
      {media.detailsChanged.map((url) => (
        <MediaItem key={`d${url}`} label={m.detailsChanged} url={url} tone="changed" />
      ))}
    </ul>
  );
}

function Part({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="space-y-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:p-6" data-testid={testId}>
      <h2 className="text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

function Words({ title, parts, testId }: { title: string; parts: DiffPart[]; testId: string }) {
  return (
    <Part title={title} testId={testId}>
      {changed(parts) ? <DiffText parts={parts} /> : <p className="text-stone-600">{m.compareUnchanged}</p>}
    </Part>
  );
}

/** What going from one version to another changes: the words of title, standfirst and text, the other fields, the media. */
export function VersionComparison({ comparison }: { comparison: Comparison }) {
  return (
    <div className="space-y-4" data-testid="comparison">
      <p className="flex flex-wrap gap-4 text-sm">
        <span className="diff-text">
          <ins>{m.legendAdded}</ins>
        </span>
        <span className="diff-text">
          <del>{m.legendRemoved}</del>
        </span>
      </p>
      <Words title={m.fieldTitle} parts={comparison.title} testId="diff-title" />
      <Words title={m.fieldStandfirst} parts={comparison.standfirst} testId="diff-standfirst" />
      <Words title={m.fieldText} parts={comparison.text} testId="diff-text" />
      {comparison.fields.length > 0 ? (
        <Part title={m.compareOtherFields} testId="diff-fields">
          <dl className="divide-y divide-stone-200">
            {comparison.fields.map((field) => (
              <div key={field.label} className="grid gap-1 py-2 sm:grid-cols-3">
                <dt className="font-bold">{field.label}</dt>
                <dd className="diff-text break-all sm:col-span-2">
                  <del>
                    <bdi>{field.from}</bdi>
                  </del>{" "}
                  <span aria-hidden="true">←</span>{" "}
                  <ins>
                    <bdi>{field.to}</bdi>
                  </ins>
                </dd>
              </div>
            ))}
          </dl>
        </Part>
      ) : null}
      <Part title={m.compareMedia} testId="diff-media">
        <MediaList media={comparison.media} />
      </Part>
    </div>
  );
}
