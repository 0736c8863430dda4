import type { MetaService } from '../meta/meta-service.js';
import { html, type Html } from '../web/html.js';

type Status = Awaited<ReturnType<MetaService['status']>>;

/** Items of a list shown before "and N more". */
const LIST_ITEMS = 12;
/** Nesting shown as lists; deeper values are summarised (the JSON link has everything). */
const MAX_DEPTH = 3;

const label = (key: string) => key.replace(/_/g, ' ');

/** A status value as readable text: nested objects as definition lists, arrays as lists, nulls as —. */
function valueView(value: unknown, depth: number): Html | string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en');
  if (typeof value === 'string') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `${value.length} items` : `${Object.keys(value).length} fields`;
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return html`<ul class="status-list">
      ${value.slice(0, LIST_ITEMS).map((item) => html`<li>${valueView(item, depth + 1)}</li>`)} ${value.length > LIST_ITEMS ? html`<li class="muted">and ${value.length - LIST_ITEMS} more</li>` : null}
    </ul>`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return 'none';
  return html`<dl class="pairs">
    ${entries.map(
      ([key, v]) =>
        html`<dt>${label(key)}</dt>
          <dd>${valueView(v, depth + 1)}</dd>`,
    )}
  </dl>`;
}

/** One status component (or any JSON-like value) as readable lists. */
export const statusValueView = (value: unknown) => valueView(value, 0);

/** The console's home: the service status as a page, each component a section; the JSON behind a link. */
export function statusView(status: Status): Html {
  return html`<h1>Service status: ${status.status}</h1>
    <ul class="figures">
      <li><strong>${status.store.dialect}</strong>store ${status.store.healthy ? 'healthy' : 'UNHEALTHY'} (${status.store.latency_ms ?? '—'} ms)</li>
      <li><strong>${status.redis.configured ? (status.redis.healthy ? 'healthy' : 'UNHEALTHY') : 'none'}</strong>Redis</li>
      <li><strong>${status.operations.implemented}</strong>operations implemented</li>
      <li><strong>${Math.floor(status.uptime_seconds / 60)}</strong>minutes up (version ${status.version})</li>
      <li><strong>${status.telemetry.pending_records}</strong>telemetry records pending</li>
    </ul>
    <p>The same figures as JSON: <a href="/v1/status">/v1/status</a>.</p>
    <h2>Components</h2>
    ${Object.entries(status.components).map(
      ([name, report]) =>
        html`<section class="component" aria-labelledby="component-${name}">
          <h3 id="component-${name}">${label(name)}</h3>
          ${valueView(report, 0)}
        </section>`,
    )}`;
}
