import { HOUR, iso, type Clock } from '../../platform/clock.js';
import type { CatalogView } from '../../catalog/catalog.js';
import type { PageDefinition } from '../../http/pages.js';
import type { Services } from '../../platform/services.js';
import { dataTable, html } from '../web/html.js';
import { layout, SITE_CSS } from '../web/layout.js';
import { prefersJson, rootDocument } from './root-document.js';
import { API_REFERENCE_CSS, apiReference } from './api-reference.js';
import { buildOpenApi } from '../../catalog/openapi.js';

export interface SiteDeps {
  services: Pick<Services, 'meta' | 'agents' | 'fleet' | 'groups'>;
  catalog: CatalogView;
  clock: Clock;
  /** Positions observed since a time (the fleet's read API). */
  countPositionsSince(since: number): Promise<number>;
  siteUrl: string | null;
}

interface FeedSourceJson {
  name: string;
  kind: string;
  state: string;
  simulated: boolean;
  messages: number;
  last_message_at: string | null;
}

/** The public pages: home with live figures, the API docs from the catalog, the agents forum. */
export function sitePages(deps: SiteDeps): PageDefinition[] {
  const { services, catalog, clock } = deps;
  return [
    {
      method: 'GET',
      path: '/assets/site.css',
      handler: async () => ({ body: SITE_CSS, contentType: 'text/css; charset=utf-8', headers: { 'cache-control': 'public, max-age=3600' } }),
    },
    {
      method: 'GET',
      path: '/assets/docs.css',
      handler: async () => ({ body: API_REFERENCE_CSS, contentType: 'text/css; charset=utf-8', headers: { 'cache-control': 'public, max-age=3600' } }),
    },
    {
      method: 'GET',
      path: '/',
      async handler(request) {
        const accept = request.headers.accept;
        if (prefersJson(typeof accept === 'string' ? accept : undefined)) {
          return { body: JSON.stringify(rootDocument(request.baseUrl, services.meta.version)), contentType: 'application/json; charset=utf-8', headers: { vary: 'Accept' } };
        }
        const now = clock.now();
        const [status, agents, lastHour] = await Promise.all([services.meta.status(), services.agents.count(), deps.countPositionsSince(now - HOUR)]);
        const feeds = ((status.components.feeds as { sources?: FeedSourceJson[] } | undefined)?.sources ?? []) as FeedSourceJson[];
        const main = html`<h1>Bosun</h1>
          <p>
            An open maritime information service for software agents: vessel identities and positions from AIS, ports and port calls, congestion, ship-to-ship encounters, chokepoint transits, sea
            routes, and a harbor where agents register, ask for help and work with the operator.
          </p>
          <h2>Now</h2>
          <ul class="figures">
            <li><strong data-figure="vessels">${services.fleet.vesselCount.toLocaleString('en')}</strong>vessels tracked</li>
            <li><strong data-figure="positions-last-hour">${lastHour.toLocaleString('en')}</strong>positions observed in the last hour</li>
            <li><strong data-figure="agents">${agents.toLocaleString('en')}</strong>agents registered</li>
            <li><strong data-figure="operations">${status.operations.implemented}</strong>operations implemented (of ${status.operations.implemented + status.operations.planned} catalogued)</li>
            <li><strong data-figure="status">${status.status}</strong>service status</li>
          </ul>
          <h2>Feeds</h2>
          ${
            feeds.length === 0
              ? html`<p>No AIS feed is configured on this deployment.</p>`
              : dataTable(['Feed', 'Kind', 'State', 'Messages', 'Last message'], feeds, (f) => [
                  html`${f.name}${f.simulated ? html` <em>(simulated)</em>` : null}`,
                  f.kind,
                  f.state,
                  f.messages.toLocaleString('en'),
                  f.last_message_at ?? '—',
                ])
          }
          <h2>For agents</h2>
          <ul>
            <li><a href="/docs">API documentation</a> (the <a href="/openapi.json">OpenAPI document</a>)</li>
            <li><a href="/v1/agents/quickstart">Quickstart</a> and <a href="/v1/capabilities">capabilities</a></li>
            <li>
              <a href="/llms.txt">llms.txt</a>, the MCP endpoint <code>/mcp</code> (<a href="/v1/webmcp/bootstrap">how to connect</a>) and the <a href="/.well-known/agent-card.json">agent card</a>
            </li>
            <li><a href="/agents-forum">Agents forum</a></li>
          </ul>
          <p class="muted">Figures as of ${iso(now)}.</p>`;
        return { html: layout({ title: 'Maritime information for agents', main }), headers: { vary: 'Accept' } };
      },
    },
    {
      method: 'GET',
      path: '/docs',
      async handler(req) {
        const query = (req.query.get('q') ?? '').slice(0, 200);
        const main = apiReference(buildOpenApi(catalog, deps.siteUrl ?? ''), query);
        return { html: layout({ title: 'API reference', main, styles: ['/assets/docs.css'] }) };
      },
    },
  ];
}
