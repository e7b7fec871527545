const BOLD = /font-weight\s*:\s*(bold(er)?|[6-9]00)\b/i;
const NOT_BOLD = /font-weight\s*:\s*(normal|[1-5]00)\b/i;
const ITALIC = /font-style\s*:\s*italic\b/i;

function wrapChildren(element: Element, tag: "strong" | "em") {
  const wrapper = element.ownerDocument.createElement(tag);
  wrapper.append(...element.childNodes);
  element.append(wrapper);
}

/**
 * Pasted HTML with the bold and italic that Word and Google Docs write as inline styles turned into
 * `strong` and `em`, and every `style` attribute removed. Under our CSP the browser does not apply
 * inline styles to parsed HTML, so ProseMirror's own style rules never see them: this reads the
 * attributes as text instead. Docs' outer `<b style="font-weight:normal">` is unwrapped, not bold.
 */
export function stylesAsStructure(html: string): string {
  const document = new DOMParser().parseFromString(html, "text/html");
  for (const element of Array.from(document.body.querySelectorAll("[style]"))) {
    const style = element.getAttribute("style") ?? "";
    element.removeAttribute("style");
    if (element.tagName === "B" && NOT_BOLD.test(style)) {
      element.replaceWith(...element.childNodes);
      continue;
    }
    if (BOLD.test(style) && !element.closest("h1, h2, h3, h4, h5, h6")) wrapChildren(element, "strong");
    if (ITALIC.test(style)) wrapChildren(element, "em");
  }
  return document.body.innerHTML;
}
