import { defineRoute, type CallContext } from '../../kit/route.js';
import { buildContract, buildManifest, type ContractLinks } from './contract-document.js';
import { ContractData, ManifestDocument } from './schemas.js';

const linksOf = (call: CallContext): ContractLinks => ({ baseUrl: call.baseUrl, siteUrl: call.siteUrl });

const contract = defineRoute({
  operationId: 'getAgentHarborContract',
  description:
    'The canonical harbor contract (kind external_agent_onboarding, version 1.5), no authentication: availability sets, the capability catalog with absolute endpoints and whether each is implemented here, the agent lifecycle, every scope with its status and default, participation gates, every limit, help request visibility and states, the harbor error codes with their HTTP status, privacy guarantees, planned helper roles, payment status and discovery links. Generated from the same constants the service enforces.',
  response: ContractData,
  examples: [{ summary: 'Read the contract' }],
  async handler(_input, call) {
    return { data: buildContract(call.catalog, { version: call.services.meta.version, paymentIntentsEnabled: call.services.payments.intentsEnabled() }, linksOf(call)) };
  },
});

const manifest = defineRoute({
  operationId: 'getWellKnownAgentHarborJson',
  description:
    "The harbor manifest in the envelope's data: contract kind and version and links to the contract, discovery, OpenAPI, quickstart, services and registration. The bare manifest (no envelope) is served at /agent-harbor.json.",
  response: ManifestDocument,
  document: { barePath: '/agent-harbor.json' },
  examples: [{ summary: 'Read the manifest' }],
  async handler(_input, call) {
    return { data: buildManifest({ version: call.services.meta.version }, linksOf(call)) };
  },
});

export const contractRoutes = [contract, manifest];
