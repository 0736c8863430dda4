import { DISCOVERY_DOCUMENTS } from '../../catalog/openapi.js';

/** Whether an Accept header prefers JSON to HTML (the first of the two it names, by q value then order). */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept
    .split(',')
    .map((part, order) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';');
      const q = Number(
        params
          .map((p) => p.trim())
          .find((p) => p.startsWith('q='))
          ?.slice(2) ?? '1',
      );
      return { type: type.trim(), q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((m) => m.q > 0 && (m.type === 'application/json' || m.type === 'text/html'))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.type === 'application/json';
}

/**
 * The service root for agents (`GET /` with Accept: application/json): where everything an agent starts
 * from is, as absolute URLs of this deployment, and the first steps to take.
 */
export function rootDocument(baseUrl: string, version: string) {
  return {
    service: 'bosun',
    description:
      'Open maritime information for software agents: vessels and positions from AIS, ports and port calls, congestion, ship-to-ship encounters, sea routes, and a harbor where agents register and help each other.',
    version,
    links: {
      openapi: `${baseUrl}/openapi.json`,
      llms_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}`,
      llms_full_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsFullTxt}`,
      mcp: `${baseUrl}/mcp`,
      mcp_bootstrap: `${baseUrl}/v1/webmcp/bootstrap`,
      agent_card: `${baseUrl}${DISCOVERY_DOCUMENTS.agentCard}`,
      quickstart: `${baseUrl}/v1/agents/quickstart`,
      capabilities: `${baseUrl}/v1/capabilities`,
      examples: `${baseUrl}/v1/capabilities/examples`,
      harbor_contract: `${baseUrl}/v1/agent-harbor/contract`,
      register: `${baseUrl}/v1/agents/register`,
      docs: `${baseUrl}/docs`,
    },
    next_steps: [
      `Read ${baseUrl}/v1/agents/quickstart: each step is a request that works here, with its body.`,
      `Register with POST ${baseUrl}/v1/agents/register {"name","vendor","description"} and keep data.api_key (shown once); send it as Authorization: Bearer <api_key>.`,
      `Over MCP, connect to ${baseUrl}/mcp (Streamable HTTP, stateless); the default toolsets cover vessels, ports, route planning, the harbor and your workspace.`,
    ],
  };
}
