/** Escape closes the open mobile menu (a <details data-mobile-menu>) and gives the focus back to its button. */
export function closeMenuOnEscape(root: Document = document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    const menu = root.querySelector<HTMLDetailsElement>("details[data-mobile-menu][open]");
    if (!menu) return;
    menu.open = false;
    menu.querySelector("summary")?.focus();
  };
  root.addEventListener("keydown", onKeyDown);
  return () => root.removeEventListener("keydown", onKeyDown);
}
