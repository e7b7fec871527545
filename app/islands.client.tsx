import { useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { ISLANDS } from "./islands/registry";
import { showRelativeTimes } from "./islands/relative-times";
import { closeMenuOnEscape } from "./islands/menu-escape";
import { registerServiceWorker } from "./islands/service-worker-registration";

const islands = new Map(ISLANDS.map((island) => [island.islandName, island]));
// An island inside another is hydrated with it.
const roots = [...document.querySelectorAll<HTMLElement>("ak-island")].filter((element) => !element.parentElement?.closest("ak-island"));
let waiting = roots.length;

/** Marks the page once every island is live, for the browser tests and anyone else who asks. */
function Hydrated({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    waiting -= 1;
    showRelativeTimes();
closeMenuOnEscape();
if (waiting === 0) document.documentElement.dataset.hydrated = "islands";
  }, []);
  return children;
}

showRelativeTimes();
closeMenuOnEscape();
registerServiceWorker();
if (waiting === 0) document.documentElement.dataset.hydrated = "islands";
for (const root of roots) {
  const island = islands.get(root.dataset.name ?? "");
  if (!island) throw new Error(`unknown island ${root.dataset.name}`);
  hydrateRoot(root, <Hydrated>{island.render(JSON.parse(root.dataset.props ?? "{}"))}</Hydrated>);
}
