/** HTML built from template literals: every interpolated value is escaped unless it is already Html. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Value[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Text already made safe elsewhere (a rendered fragment). */
export const trusted = (text: string) => new Html(text);

/**
 * A table with one header cell per column (`<th scope="col">`) and one row per item (`cells` gives its
 * cells in column order); `rowAttributes` adds attributes to an item's `<tr>` (e.g. data-* for tests).
 */
export function dataTable<T>(columns: readonly string[], items: readonly T[], cells: (item: T) => readonly Value[], rowAttributes?: (item: T) => Record<string, string>): Html {
  const attributes = (item: T) =>
    rowAttributes
      ? Object.entries(rowAttributes(item))
          .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
          .join('')
      : '';
  // on a narrow screen each row becomes a card, each cell labelled with its column (site.css, table.cards)
  return html`<table class="cards">
    <thead>
      <tr>
        ${columns.map((column) => html`<th scope="col">${column}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${items.map((item) => html`<tr${trusted(attributes(item))}>${cells(item).map((cell, i) => html`<td data-label="${columns[i] ?? ''}">${cell}</td>`)}</tr>`)}
    </tbody>
  </table>`;
}
