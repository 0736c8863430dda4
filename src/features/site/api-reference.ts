import type { buildOpenApi } from '../../catalog/openapi.js';
import type { OperationExample } from '../../catalog/types.js';
import { html, trusted, escapeHtml, type Html } from '../web/html.js';

type OpenApi = ReturnType<typeof buildOpenApi>;

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema?: { type?: unknown; enum?: unknown[]; default?: unknown; minimum?: number; maximum?: number; format?: string };
  example?: unknown;
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  section: string;
  access: string;
  cost: unknown;
  scopes: readonly string[];
  parameters: Parameter[];
  hasBody: boolean;
  responses: Array<{ status: string; description: string }>;
  examples: readonly OperationExample[];
}

/** Sections in the order a reader meets them: the maritime data first, then working with other agents, then the service itself. */
const SECTION_ORDER = [
  'vessels',
  'ports',
  'sts',
  'events',
  'layers',
  'routes',
  'metrics',
  'agents',
  'exchange',
  'harbor',
  'workspace',
  'feedback',
  'services',
  'payments',
  'billing',
  'discovery',
  'meta',
  'site',
];

const ACCESS: Record<string, string> = { P: 'public', K: 'agent key', U: 'operator' };

/** The operations of an OpenAPI document, flat, in section order then path order. */
export function operationsOf(doc: OpenApi): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as Record<string, unknown>;
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        summary: typeof op.summary === 'string' ? op.summary : '',
        description: typeof op.description === 'string' ? op.description : '',
        section: (op.tags as string[] | undefined)?.[0] ?? 'other',
        access: ACCESS[String(op['x-access-class'])] ?? String(op['x-access-class']),
        cost: op['x-cost-units-hint'],
        scopes: (op['x-required-scopes'] as string[] | undefined) ?? [],
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        hasBody: op.requestBody !== undefined,
        responses: Object.entries((op.responses as Record<string, { description: string }> | undefined) ?? {}).map(([status, r]) => ({ status, description: r.description })),
        examples: (op['x-examples'] as OperationExample[] | undefined) ?? [],
      });
    }
  }
  const rank = (section: string) => (SECTION_ORDER.includes(section) ? SECTION_ORDER.indexOf(section) : SECTION_ORDER.length);
  return out.sort((a, b) => rank(a.section) - rank(b.section) || a.section.localeCompare(b.section) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Whether an operation matches every word of a search (path, id, summary, description, parameter names). */
export function matches(op: Operation, query: string): boolean {
  const text = [op.method, op.path, op.operationId, op.summary, op.description, op.section, ...op.parameters.map((p) => p.name)].join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/** A path that may wrap only after a slash, never inside a word. */
const pathView = (path: string) => html`<code class="path">${trusted(path.split('/').map(escapeHtml).join('/<wbr />'))}</code>`;

const typeOf = (p: Parameter) => {
  const s = p.schema ?? {};
  if (Array.isArray(s.enum)) return s.enum.map(String).join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : 'value';
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` ${s.minimum ?? ''}–${s.maximum ?? ''}` : '';
  return `${type}${s.format ? ` (${s.format})` : ''}${range}`;
};

/** An example as the request line an agent sends: the path with its parameters filled in and the query. */
export function exampleRequest(op: Pick<Operation, 'method' | 'path'>, example: OperationExample): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(example.params?.[name] ?? `{${name}}`));
  const query = example.query ? new URLSearchParams(Object.entries(example.query).map(([k, v]) => [k, String(v)])).toString() : '';
  return `${op.method} ${path}${query ? `?${query}` : ''}`;
}

function operationView(op: Operation): Html {
  return html`<article class="op" id="${op.operationId}" data-section="${op.section}">
    <h3><a class="anchor" href="#${op.operationId}" aria-label="Link to ${op.operationId}">#</a> <span class="method method-${op.method.toLowerCase()}">${op.method}</span> ${pathView(op.path)}</h3>
    <p class="summary">${op.summary}</p>
    <p class="muted">
      <code>${op.operationId}</code> · ${op.access}${op.scopes.length ? html` · scopes ${op.scopes.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`)}` : null} · cost ${String(op.cost)} units
    </p>
    <p>${op.description}</p>
    ${
      op.parameters.length
        ? html`<h4>Parameters</h4>
            <dl class="params">
              ${op.parameters.map(
                (p) =>
                  html`<dt><code>${p.name}</code> <span class="muted">${p.in}${p.required ? ', required' : ''} · ${typeOf(p)}</span></dt>
                    <dd>${p.description ?? ''}${p.example !== undefined ? html` <span class="muted">e.g. <code>${JSON.stringify(p.example)}</code></span>` : null}</dd>`,
              )}
            </dl>`
        : null
    }
    ${op.hasBody ? html`<p class="muted">Request body: JSON (see the examples and the <a href="/openapi.json">OpenAPI document</a> for its schema).</p>` : null}
    <h4>Responses</h4>
    <dl class="params">
      ${op.responses.map(
        (r) =>
          html`<dt><code>${r.status}</code></dt>
            <dd>${r.description}</dd>`,
      )}
    </dl>
    ${
      op.examples.length
        ? html`<h4>Examples</h4>
            ${op.examples.map(
              (e) =>
                html`<figure class="example">
                  <figcaption>${e.summary}${e.expectError ? html` <span class="muted">(answers <code>${e.expectError}</code> on a default deployment)</span>` : null}</figcaption>
                  <pre tabindex="0"><code>${exampleRequest(op, e)}${e.body !== undefined ? `\n\n${JSON.stringify(e.body, null, 2)}` : ''}</code></pre>
                </figure>`,
            )}`
        : null
    }
  </article>`;
}

/**
 * The API reference (`/docs`), generated from the public OpenAPI document: contents by section, a
 * search (`?q=`, every word must match; no script needed), and per operation its access, cost,
 * parameters, responses and examples, each at a deep link `#operationId`.
 */
export function apiReference(doc: OpenApi, query: string): Html {
  const all = operationsOf(doc);
  const shown = query.trim() ? all.filter((op) => matches(op, query)) : all;
  const sections = [...new Set(shown.map((op) => op.section))];
  return html`<div class="reference">
    <aside class="contents" aria-label="Contents">
      <form method="get" action="/docs" role="search">
        <label for="docs-q">Search operations</label>
        <input id="docs-q" name="q" type="search" value="${query}" placeholder="e.g. vessel track" />
        <button type="submit">Search</button>
      </form>
      <nav aria-label="API sections">
        <ul>
          ${sections.map((s) => html`<li><a href="#section-${s}">${s}</a> <span class="muted">(${shown.filter((op) => op.section === s).length})</span></li>`)}
        </ul>
      </nav>
    </aside>
    <div class="operations">
      <h1>API reference</h1>
      <p>
        ${shown.length === all.length ? `All ${all.length} operations` : `${shown.length} of ${all.length} operations match "${query}"`}, generated from this deployment's
        <a href="/openapi.json">OpenAPI 3.1 document</a>. Every response is an envelope (status, request_id, cost_units, data, errors…); send your API key as
        <code>Authorization: Bearer bsk_…</code> (register with <code>POST /v1/agents/register</code>). ${shown.length !== all.length ? html`<a href="/docs">Show all</a>.` : null}
      </p>
      ${sections.map(
        (section) =>
          html`<section aria-labelledby="section-${section}">
            <h2 id="section-${section}">${section}</h2>
            ${shown.filter((op) => op.section === section).map(operationView)}
          </section>`,
      )}
    </div>
  </div>`;
}

export const API_REFERENCE_CSS = `.reference{display:grid;grid-template-columns:minmax(0,1fr);gap:1.5rem}
@media (min-width:64rem){.reference{grid-template-columns:15rem minmax(0,1fr)}.contents{position:sticky;top:1rem;align-self:start;max-height:calc(100vh - 2rem);overflow:auto}}
.contents ul{list-style:none;padding:0;margin:.5rem 0}.contents li{margin:.15rem 0}.contents input{width:100%}
.op{border-top:1px solid var(--line);padding:.75rem 0}.op h3{font-size:1.05rem;margin:.2rem 0}.reference a{text-decoration:underline}.op .anchor{color:var(--muted)}
.op code{overflow-wrap:anywhere;word-break:normal}.op p,.op dd,.op dt{overflow-wrap:anywhere}
code.path{word-break:normal;overflow-wrap:normal;white-space:normal}.method{display:inline-block;min-width:3.6rem;font:700 .8rem/1.6 ui-monospace,monospace;text-align:center;border-radius:.25rem;color:#fff;background:#3b4a57}
.method-get{background:#0b5394}.method-post{background:#1b6b3a}.method-put,.method-patch{background:#7a4b00}.method-delete{background:#9b1c2c}
dl.params{display:grid;grid-template-columns:minmax(0,1fr);gap:.1rem;margin:.3rem 0}dl.params dd{margin:0 0 .5rem 1rem}
.operations,.contents{min-width:0}.example{margin:.5rem 0}.example pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f6f9;border:1px solid var(--line);border-radius:.3rem;padding:.5rem;overflow:auto}.example code{word-break:normal}
`;
