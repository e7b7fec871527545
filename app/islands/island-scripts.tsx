import entry from "virtual:akhbar/islands-entry";

/** True when the build has the islands entry; the dev server hydrates every page whole instead. */
export const islandsBuilt = entry !== null;

/** The islands entry and the chunks it imports, in place of React Router's <Scripts />. */
export function IslandScripts() {
  if (!entry) return null;
  return (
    <>
      {entry.imports.map((file) => (
        <link key={file} rel="modulepreload" href={`/${file}`} />
      ))}
      <script type="module" src={`/${entry.file}`} />
    </>
  );
}
