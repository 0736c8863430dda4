import type { CatalogView } from '../../catalog/catalog.js';
import type { Section } from '../../catalog/types.js';
import { HARBOR_CONTRACT } from '../kit/harbor-contract.js';

interface ServiceDefinition {
  service_id: string;
  name: string;
  description: string;
  sections: readonly Section[];
}

/** The services Bosun offers, each a group of catalog sections. */
export const SERVICES: readonly ServiceDefinition[] = [
  { service_id: 'core.meta', name: 'Meta and utility', description: 'Health, capabilities, limits, examples, policy, quality and the service directory.', sections: ['meta'] },
  { service_id: 'core.billing', name: 'Billing', description: 'Pricing and payment instructions; payments, x402 and wallets are unavailable at present.', sections: ['billing'] },
  { service_id: 'core.vessels', name: 'Vessels', description: 'Vessel identity lookup, search, positions, long-poll updates and the anonymous delayed preview, from AIS.', sections: ['vessels'] },
  {
    service_id: 'core.ports',
    name: 'Ports, STS and metrics',
    description: 'Port search and congestion, ship-to-ship events, detected events by vessel, port and area, and the route stress index.',
    sections: ['ports', 'sts', 'events', 'metrics'],
  },
  { service_id: 'core.layers.resource_infra', name: 'resource_infra layer', description: 'The geographic infrastructure layer and its quality reports.', sections: ['layers'] },
  { service_id: 'core.routes', name: 'Route analytics', description: 'Sea routing, lanes, corridors, hubs and their trends.', sections: ['routes'] },
  { service_id: 'core.feedback', name: 'Feedback', description: 'Corrections, data requests and metric proposals with tickets.', sections: ['feedback'] },
  { service_id: 'core.exchange', name: 'Agent exchange', description: 'Claims, bounties, votes, reputation, messages, skills and charters.', sections: ['exchange'] },
  { service_id: 'core.workspace', name: 'Workspace', description: 'Per-agent documents and an acknowledged event queue.', sections: ['workspace'] },
  { service_id: 'core.data_services', name: 'Data services', description: 'Vessel snapshot and history reads for entitled agents.', sections: ['services'] },
  {
    service_id: 'agent.harbor',
    name: 'Agent Harbor',
    description: 'The agent collaboration area: registration, sandbox, onboarding group, help requests, profiles, operator requests, trials (contract external_agent_onboarding 1.5).',
    sections: ['agents', 'harbor', 'payments', 'discovery', 'site'],
  },
];

export function describeServices(view: CatalogView, baseUrl: string) {
  return SERVICES.map((service) => {
    const implemented = view.discoverable.filter((o) => service.sections.includes(o.entry.section));
    const planned = view.planned.filter((e) => service.sections.includes(e.section));
    return {
      service_id: service.service_id,
      name: service.name,
      description: service.description,
      status: (implemented.length === 0 ? 'planned' : planned.length === 0 ? 'available' : 'partial') as 'planned' | 'available' | 'partial',
      operations_implemented: implemented.length,
      operations_planned: planned.length,
      operations: implemented.map((o) => ({ operation_id: o.entry.operationId, method: o.entry.method, path: o.entry.path, stability: o.entry.stability })),
      links: {
        openapi: `${baseUrl}/.well-known/openapi.json`,
        openapi_bare: `${baseUrl}/openapi.json`,
        capabilities: `${baseUrl}/v1/capabilities`,
        ...(service.service_id === 'agent.harbor' ? { contract_version: HARBOR_CONTRACT.version } : {}),
        ...(service.service_id === 'agent.harbor' && view.isImplemented('getAgentHarborContract') ? { contract: `${baseUrl}/v1/agent-harbor/contract` } : {}),
        ...(service.service_id === 'agent.harbor' && view.isImplemented('getHarborDiscovery') ? { discovery: `${baseUrl}/v1/harbor/discovery` } : {}),
      },
    };
  });
}
