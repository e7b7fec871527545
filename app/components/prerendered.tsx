import { createContext, useContext } from "react";

/**
 * The HTML of the regions every anonymous reader page repeats, rendered once and reused
 * (docs/decisions/020). `entry.server.tsx` provides it only to pages that hydrate in islands, for
 * readers who are not signed in; in the browser, on pages hydrated whole and for signed-in users
 * there is none and the regions render as usual.
 */
export type Prerendered = {
  /** The inner HTML of the navbar's <header>, with this page's current-page marks. */
  navbar: string;
  /** The inner HTML of the <footer>. */
  footer: string;
  /** The HTML of `render()`, made once per `key`: a list the read cache shares while it holds it. */
  once: (key: object, render: () => React.ReactNode) => string;
};

const PrerenderedContext = createContext<Prerendered | null>(null);
export const PrerenderedProvider = PrerenderedContext.Provider;

export function usePrerendered(): Prerendered | null {
  return useContext(PrerenderedContext);
}
