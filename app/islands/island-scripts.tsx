import entry from "virtual:akhbar/islands-entry";

/** True when the build has the islands entry; the dev server hydrates every page whole instead. */
export const islandsBuilt = entry !== null;

/**
 * The islands entry, in place of React Router's <Scripts />, fetched once the page has loaded and
 * painted: on a slow connection its chunks would otherwise compete with the stylesheet, fonts and
 * first image, and on a slow phone its hydration with the first paint; nothing on a reader page
 * needs them to be read.
 */
export function IslandScripts() {
  if (!entry) return null;
  // After the load event and the next frame, so that the first paint never waits for hydration.
  const load = `const go=()=>requestAnimationFrame(()=>setTimeout(()=>import(${JSON.stringify(`/${entry.file}`)})));document.readyState==="complete"?go():addEventListener("load",go,{once:true});`;
  return <script type="module" dangerouslySetInnerHTML={{ __html: load }} />;
}
