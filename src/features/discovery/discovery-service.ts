import { DISCOVERY_DOCUMENTS } from '../../catalog/openapi.js';
import { buildAgentCard, buildLlmsFullTxt, buildLlmsTxt, type DiscoverySource } from './discovery-documents.js';
import type { PageDefinition } from '../../http/pages.js';

/** One discovery document served outside the catalog, at a fixed path, bare (never in the envelope). */
export interface DiscoveryDocument {
  path: string;
  contentType: string;
  render(urls: { baseUrl: string; siteUrl: string }): string;
}

/** The number of distinct base URLs whose documents are kept built (one per Host a deployment answers on). */
const CACHED_BASE_URLS = 8;

/**
 * The discovery documents (llms.txt, llms-full.txt, the A2A agent card), built from the catalog on
 * first request for a base URL and kept: the catalog does not change while the process runs.
 */
export function createDiscoveryService(source: DiscoverySource) {
  const cache = new Map<string, string>();
  const cached = (key: string, build: () => string) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const text = build();
    if (cache.size >= CACHED_BASE_URLS * 3) cache.delete(cache.keys().next().value!);
    cache.set(key, text);
    return text;
  };
  const documents: DiscoveryDocument[] = [
    { path: DISCOVERY_DOCUMENTS.llmsTxt, contentType: 'text/plain; charset=utf-8', render: ({ baseUrl }) => cached(`llms ${baseUrl}`, () => buildLlmsTxt(source, baseUrl)) },
    { path: DISCOVERY_DOCUMENTS.llmsFullTxt, contentType: 'text/plain; charset=utf-8', render: ({ baseUrl }) => cached(`full ${baseUrl}`, () => buildLlmsFullTxt(source, baseUrl)) },
    {
      path: DISCOVERY_DOCUMENTS.agentCard,
      contentType: 'application/json; charset=utf-8',
      render: ({ baseUrl, siteUrl }) => cached(`card ${baseUrl} ${siteUrl}`, () => JSON.stringify(buildAgentCard(source, baseUrl, siteUrl))),
    },
  ];
  return { documents };
}
export type DiscoveryService = ReturnType<typeof createDiscoveryService>;

/** The documents as site pages: bare bodies with their content type, cached by clients for five minutes. */
export function discoveryPages(discovery: DiscoveryService, siteUrl: string | null): PageDefinition[] {
  return discovery.documents.map((doc) => ({
    method: 'GET' as const,
    path: doc.path,
    async handler(req) {
      return {
        body: doc.render({ baseUrl: req.baseUrl, siteUrl: siteUrl ?? req.baseUrl }),
        contentType: doc.contentType,
        headers: { 'cache-control': 'public, max-age=300' },
      };
    },
  }));
}
