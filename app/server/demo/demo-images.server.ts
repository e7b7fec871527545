import type { Category } from "~/lib/categories";

const PALETTES: Record<Category, [string, string, string]> = {
  local: ["#0f4c5c", "#5f9ea0", "#e9c46a"],
  international: ["#1d3557", "#457b9d", "#f1faee"],
  educational: ["#264653", "#2a9d8f", "#f4a261"],
  sports: ["#14532d", "#22c55e", "#fefce8"],
  miscellaneous: ["#6d28d9", "#c084fc", "#fde68a"],
  breaking: ["#7f1d1d", "#dc2626", "#fee2e2"],
  advertisement: ["#9a3412", "#fb923c", "#fff7ed"],
};

/** A deterministic pseudo-random sequence, so the same seed draws the same scene. */
function sequence(seed: number): () => number {
  let state = seed % 2_147_483_647 || 1;
  return () => {
    state = (state * 48_271) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

/** A landscape-like SVG scene (sky, sun, hills, sea) drawn without any text or download. */
export function demoSceneSvg(category: Category, seed: number, width = 1600, height = 900): string {
  const [dark, mid, light] = PALETTES[category];
  const random = sequence(seed * 7919 + 17);
  const sunX = Math.round(width * (0.15 + random() * 0.7));
  const sunY = Math.round(height * (0.15 + random() * 0.25));
  const hills = Array.from({ length: 3 }, (_, layer) => {
    const base = height * (0.55 + layer * 0.12);
    const points = Array.from({ length: 9 }, (_, i) => {
      const x = (width / 8) * i;
      const y = base - random() * height * 0.18;
      return `${Math.round(x)},${Math.round(y)}`;
    });
    const opacity = (0.55 + layer * 0.2).toFixed(2);
    return `<polygon points="0,${height} ${points.join(" ")} ${width},${height}" fill="${dark}" opacity="${opacity}"/>`;
  });
  const buildings = Array.from({ length: 14 }, () => {
    const w = 30 + random() * 70;
    const h = 60 + random() * 220;
    const x = random() * (width - w);
    return `<rect x="${Math.round(x)}" y="${Math.round(height * 0.8 - h)}" width="${Math.round(w)}" height="${Math.round(h)}" fill="${dark}" opacity="0.85"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mid}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#sky)"/>
<circle cx="${sunX}" cy="${sunY}" r="${Math.round(height * 0.09)}" fill="${light}" opacity="0.9"/>
${hills.join("\n")}
${buildings.join("\n")}
<rect y="${Math.round(height * 0.8)}" width="${width}" height="${Math.round(height * 0.2)}" fill="${mid}" opacity="0.9"/>
</svg>`;
}
