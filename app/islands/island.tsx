import type { ComponentType } from "react";

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "ak-island": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}

/** What the browser needs to hydrate an island: its name and how to render it from parsed props. */
export type IslandDefinition = { islandName: string; render: (props: unknown) => React.JSX.Element };

export type Island<P extends object> = ((props: P) => React.JSX.Element) & IslandDefinition;

/**
 * A component that stays interactive on pages the browser does not hydrate whole: the server wraps
 * it in <ak-island> with its props, and app/islands.client.tsx hydrates it there on its own.
 * Its props must survive JSON, and it must not use React Router, which those pages do not load.
 * The wrapper is `display: contents` (app.css), so parents space islands with `gap`, not `space-*`
 * margins. An island without props carries no data-props.
 */
export function island<P extends object>(name: string, Component: ComponentType<P>): Island<P> {
  function Wrapped(props: P) {
    return (
      <ak-island data-name={name} data-props={Object.keys(props).length > 0 ? JSON.stringify(props) : undefined}>
        <Component {...props} />
      </ak-island>
    );
  }
  Wrapped.displayName = `Island(${name})`;
  return Object.assign(Wrapped, { islandName: name, render: (props: unknown) => <Component {...(props as P)} /> });
}
