import { html, type Html } from '../web/html.js';

export interface ChartPoint {
  label: string;
  value: number | null;
}

/**
 * A bar chart as inline SVG, rendered on the server (no script): one bar per point, the maximum on
 * the axis, a title and a text alternative for screen readers (the table of values follows it).
 */
export function barChart(title: string, unit: string, points: readonly ChartPoint[], id: string): Html {
  const width = 720;
  const height = 140;
  const max = Math.max(0, ...points.map((p) => p.value ?? 0));
  const step = points.length === 0 ? width : width / points.length;
  const bars = points.map((p, i) => {
    const h = max === 0 || p.value === null ? 0 : Math.max(1, (p.value / max) * (height - 20));
    return html`<rect x="${(i * step + 1).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${Math.max(1, step - 2).toFixed(1)}" height="${h.toFixed(1)}"
      ><title>${p.label}: ${p.value ?? '—'} ${unit}</title></rect
    >`;
  });
  const total = points.reduce((sum, p) => sum + (p.value ?? 0), 0);
  return html`<figure class="chart" aria-labelledby="${id}-title">
    <figcaption id="${id}-title">${title} <span class="muted">(max ${Number(max.toFixed(2))} ${unit}${unit === 'ms' ? '' : html`, total ${Number(total.toFixed(2))}`})</span></figcaption>
    <svg
      role="img"
      aria-label="${title}: ${points.length} values, maximum ${Number(max.toFixed(2))} ${unit}"
      viewBox="0 0 ${width} ${height}"
      width="100%"
      height="${height}"
      preserveAspectRatio="none"
      data-chart="${id}"
      data-unit="${unit}"
      data-labels="${JSON.stringify(points.map((p) => p.label))}"
      data-values="${JSON.stringify(points.map((p) => p.value))}"
      fill="#0b5394"
    >
      ${bars}
    </svg>
  </figure>`;
}
