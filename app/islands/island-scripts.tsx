import entry from "virtual:akhbar/islands-entry";

/** True when the build has the islands entry; the dev server hydrates every page whole instead. */
export const islandsBuilt = entry !== null;

/**
 * The islands entry, in place of React Router's <Scripts />, fetched once the page has loaded: on
 * a slow connection its chunks would otherwise compete with the stylesheet, fonts and first image,
 * and nothing on a reader page needs them to be read.
 */
export function IslandScripts() {
  if (!entry) return null;
  const load = `const go=()=>import(${JSON.stringify(`/${entry.file}`)});document.readyState==="complete"?go():addEventListener("load",go,{once:true});`;
  return <script type="module" dangerouslySetInnerHTML={{ __html: load }} />;
}
