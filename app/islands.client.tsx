import { useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { IDLE_ISLANDS, ISLANDS } from "./islands/registry";
import { showRelativeTimes } from "./islands/relative-times";
import { closeMenuOnEscape } from "./islands/menu-escape";
import { registerServiceWorker } from "./islands/service-worker-registration";
import { keepStoriesForOffline } from "./islands/offline-reading";

// An island inside another is hydrated with it.
const roots = [...document.querySelectorAll<HTMLElement>("ak-island")].filter(
  (element) => !element.parentElement?.closest("ak-island"),
);
let waiting = roots.length;

/** Marks the page once every island is live, for the browser tests and anyone else who asks. */
function Hydrated({ children }: { children: React.ReactNode }) {
  useEffect(() => {
    waiting -= 1;
    if (waiting === 0) document.documentElement.dataset.hydrated = "islands";
  }, []);
  return children;
}

/** Loads the code of these islands (only theirs: the registry's loaders) and hydrates each. */
async function hydrate(elements: HTMLElement[]): Promise<void> {
  await Promise.all(
    elements.map(async (root) => {
      const load = ISLANDS[root.dataset.name ?? ""];
      if (!load) throw new Error(`unknown island ${root.dataset.name}`);
      const island = await load();
      hydrateRoot(root, <Hydrated>{island.render(JSON.parse(root.dataset.props ?? "{}"))}</Hydrated>);
    }),
  );
}

const whenIdle = (run: () => void) =>
  "requestIdleCallback" in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

showRelativeTimes();
closeMenuOnEscape();
registerServiceWorker();
if (waiting === 0) document.documentElement.dataset.hydrated = "islands";
const idle = roots.filter((root) => IDLE_ISLANDS.has(root.dataset.name ?? ""));
void hydrate(roots.filter((root) => !idle.includes(root))).finally(() =>
  whenIdle(() => {
    void hydrate(idle);
    void keepStoriesForOffline();
  }),
);
