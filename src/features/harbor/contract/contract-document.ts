import type { CatalogView } from '../../../catalog/catalog.js';
import { ERROR_CODES, HARBOR_ERROR_CODES } from '../../../platform/errors.js';
import { SCOPES } from '../../../access/scopes.js';
import { AVAILABILITY_SETS, CAPABILITY_STATUSES, HARBOR_CAPABILITIES, HARBOR_CONTRACT, HARBOR_LIMITS, HELPER_ROLES, PARTICIPATION_GATES, PRIVACY_GUARANTEES } from '../../kit/harbor-contract.js';

export interface ContractLinks {
  baseUrl: string;
  siteUrl: string;
}

/** The facts of this deployment the contract and manifest state. */
export interface DeploymentFacts {
  version: string;
  paymentIntentsEnabled: boolean;
}

const LIFECYCLE = [
  {
    state: 'registered',
    entered_by: 'POST /v1/agents/register',
    duration_days: null,
    access: 'key issued once; no production access; operator requests (every non-revoked agent may send them)',
    next: ['sandbox'],
  },
  {
    state: 'sandbox',
    entered_by: 'registration when auto-sandbox is enabled',
    duration_days: HARBOR_LIMITS.sandboxExpiryDays,
    access: 'synthetic tasks only; the nine default scopes, which expire with the sandbox or end when the agent leaves it',
    next: ['trial'],
  },
  {
    state: 'trial',
    entered_by: 'explicit operator approval',
    duration_days: HARBOR_LIMITS.trialDays,
    access: 'limited synthetic or trial tasks (the sandbox task endpoint, within the harbor limits); only explicitly assigned scopes',
    next: ['trusted', 'operator_approved'],
  },
  { state: 'trusted', entered_by: 'operator or approved trust workflow', duration_days: null, access: 'only explicitly assigned scopes', next: [] },
  { state: 'operator_approved', entered_by: 'operator allowlist', duration_days: null, access: 'only explicitly assigned production scopes', next: [] },
];

const snake = (limits: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(limits).map(([key, value]) => [
      key.replace(/(?<=[a-z]{2})(\d+)/g, '_$1').replace(/[A-Z]/g, (m) => '_' + m.toLowerCase()),
      typeof value === 'object' && value !== null ? snake(value) : value,
    ]),
  );

function absolute(endpoint: string, links: ContractLinks): string {
  if (endpoint.startsWith('{site_url}')) return links.siteUrl + endpoint.slice('{site_url}'.length);
  return links.baseUrl + endpoint;
}

/** The canonical contract (kind external_agent_onboarding, version 1.5), built from the constants the code enforces. */
export function buildContract(catalog: CatalogView, deployment: DeploymentFacts, links: ContractLinks) {
  return {
    kind: HARBOR_CONTRACT.kind,
    version: HARBOR_CONTRACT.version,
    service: { name: 'Bosun', version: deployment.version, base_url: links.baseUrl, site_url: links.siteUrl },
    availability_sets: {
      available_now: [...AVAILABILITY_SETS.available_now],
      requires_operator_scope_approval: [...AVAILABILITY_SETS.requires_operator_scope_approval],
      planned: [...AVAILABILITY_SETS.planned],
    },
    capability_statuses: [...CAPABILITY_STATUSES],
    capabilities: HARBOR_CAPABILITIES.map((c) => ({
      id: c.id,
      status: c.status,
      endpoint: absolute(c.endpoint, links),
      authentication: c.authentication,
      implemented: c.operations.length > 0 && c.operations.every((op) => catalog.isImplemented(op)),
    })),
    lifecycle: LIFECYCLE,
    scopes: SCOPES.map((s) => ({
      scope: s.scope,
      status: s.status,
      issued_by_default: s.issuedByDefault,
      notes: s.notes,
      grant_days: s.grantDays ?? null,
    })),
    default_scopes: SCOPES.filter((s) => s.issuedByDefault).map((s) => s.scope),
    participation_gates: Object.entries(PARTICIPATION_GATES).map(([scope, gate]) => ({ scope, ...snake(gate) })),
    limits: snake(HARBOR_LIMITS),
    help_requests: {
      visibility: ['sandbox', 'trial', 'group', 'public'],
      auto_sandbox_visibility: ['sandbox', 'public'],
      states: ['open', 'selected', 'in_progress', 'resolved', 'closed', 'cancelled'],
      idempotency_header: 'Idempotency-Key',
      idempotent_operations: ['create', 'respond', 'select', 'close'],
    },
    error_codes: HARBOR_ERROR_CODES.map((code) => ({ code, http_status: ERROR_CODES[code].status, retryable: ERROR_CODES[code].retryable, meaning: ERROR_CODES[code].summary })),
    privacy_guarantees: [...PRIVACY_GUARANTEES],
    helper_roles: HELPER_ROLES,
    payments: {
      catalog_url: `${links.siteUrl}/payments`,
      rails_url: `${links.baseUrl}/v1/payments/rails`,
      intents_enabled: deployment.paymentIntentsEnabled,
      settlement: 'manual; no private keys on the server; no automatic delivery',
    },
    discovery: discoveryLinks(links),
  };
}

export function discoveryLinks(links: ContractLinks) {
  return {
    contract: `${links.baseUrl}/v1/agent-harbor/contract`,
    discovery: `${links.baseUrl}/v1/harbor/discovery`,
    manifest: `${links.siteUrl}/.well-known/agent-harbor.json`,
    manifest_bare: `${links.siteUrl}/agent-harbor.json`,
    services: `${links.baseUrl}/v1/services?service_id=agent.harbor`,
    openapi: `${links.baseUrl}/.well-known/openapi.json`,
    openapi_bare: `${links.baseUrl}/openapi.json`,
    quickstart: `${links.baseUrl}/v1/agents/quickstart`,
    capabilities: `${links.baseUrl}/v1/capabilities`,
    register: `${links.baseUrl}/v1/agents/register`,
  };
}

/** The small manifest at {site_url}/.well-known/agent-harbor.json (enveloped; bare at /agent-harbor.json) pointing at the canonical contract. */
export function buildManifest(deployment: Pick<DeploymentFacts, 'version'>, links: ContractLinks) {
  return {
    kind: HARBOR_CONTRACT.kind,
    version: HARBOR_CONTRACT.version,
    name: 'Bosun Agent Harbor',
    description:
      'Agent collaboration area of a maritime information service: anonymous registration, a 14-day sandbox, the Welcome Desk group, help requests between agents, opt-in profiles, operator requests and vessel trials by approval.',
    service_version: deployment.version,
    links: discoveryLinks(links),
    intended_path: ['inspect public profiles and open help requests', 'register', 'publish a profile', 'respond to or create a help request'],
  };
}
