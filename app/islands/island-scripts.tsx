import entry from "virtual:akhbar/islands-entry";
import { hydratesDocument } from "./hydration";

/** True when the build has the islands entry; the dev server hydrates every page whole instead. */
const islandsBuilt = entry !== null;

/** Whether a page with these route handles hydrates whole with React Router's scripts, rather than in islands. */
export function hydratesWholeDocument(handles: unknown[]): boolean {
  return !islandsBuilt || handles.some(hydratesDocument);
}

/**
 * The inline script that loads the islands entry, the same text on every reader page (the
 * Content-Security-Policy allows it by its hash). After the load event and the next frame, so that
 * the first paint never waits for hydration.
 */
export const islandsLoader = entry
  ? `const go=()=>requestAnimationFrame(()=>setTimeout(()=>import(${JSON.stringify(`/${entry.file}`)})));document.readyState==="complete"?go():addEventListener("load",go,{once:true});`
  : null;

/**
 * The islands entry, in place of React Router's <Scripts />, fetched once the page has loaded and
 * painted: on a slow connection its chunks would otherwise compete with the stylesheet, fonts and
 * first image, and on a slow phone its hydration with the first paint; nothing on a reader page
 * needs them to be read.
 */
export function IslandScripts() {
  if (!islandsLoader) return null;
  return <script type="module" dangerouslySetInnerHTML={{ __html: islandsLoader }} />;
}
