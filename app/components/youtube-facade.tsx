import { useState, type MouseEvent } from "react";
import { messages } from "~/lib/messages";
import { youtubeEmbedUrl, youtubeWatchUrl } from "~/lib/video";
import { island } from "~/islands/island";
import { PlayIcon } from "./icons";
import { NewsImage } from "./news-image";

/** `poster` is a stored image (video_posters); without one the box shows the title. */
type Props = { videoId: string; title: string; poster?: string };

/**
 * A YouTube video as its poster and a play button: nothing is loaded from YouTube until the reader
 * clicks, which swaps in the player, playing. Without JavaScript it is a link to the video on YouTube.
 */
function Facade({ videoId, title, poster }: Props) {
  const [playing, setPlaying] = useState(false);
  const label = `${messages.articleVideo}: ${title}`;
  if (playing) {
    return (
      <iframe
        ref={(frame) => frame?.focus()}
        src={`${youtubeEmbedUrl(videoId)}?autoplay=1`}
        title={label}
        allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture; fullscreen"
        referrerPolicy="strict-origin-when-cross-origin"
        className="aspect-video w-full"
      />
    );
  }

  function play(event: MouseEvent<HTMLAnchorElement>) {
    // A click meant for a new tab or window goes to YouTube as any link would.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setPlaying(true);
  }

  return (
    <a
      href={youtubeWatchUrl(videoId)}
      onClick={play}
      aria-label={`${messages.playVideo}: ${title}`}
      className="group relative flex aspect-video w-full items-center justify-center bg-stone-800 text-white focus-visible:-outline-offset-4"
      data-testid="video-facade"
    >
      {poster ? (
        <NewsImage
          url={poster}
          alt=""
          sizes="(min-width: 1024px) 760px, 100vw"
          className="absolute inset-0 size-full"
        />
      ) : (
        <span className="absolute inset-x-0 top-0 line-clamp-2 p-4 text-base leading-snug font-bold sm:text-xl">
          {title}
        </span>
      )}
      <span className="relative inline-flex items-center gap-2 rounded-full bg-black/75 px-5 py-2.5 font-bold shadow-lg group-hover:bg-brand-600 group-focus-visible:bg-brand-600">
        <PlayIcon className="size-6" />
        {messages.playVideo}
      </span>
    </a>
  );
}

export const YoutubeFacade = island("youtube-facade", Facade);
