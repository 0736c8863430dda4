import { Type } from '@sinclair/typebox';
import { Nullable } from '../../kit/schema-kit.js';

const Links = Type.Object({
  contract: Type.String({ format: 'uri' }),
  discovery: Type.String({ format: 'uri' }),
  manifest: Type.String({ format: 'uri', description: 'The manifest in the envelope (data).' }),
  manifest_bare: Type.String({ format: 'uri', description: 'The same manifest as a bare JSON document.' }),
  services: Type.String({ format: 'uri' }),
  openapi: Type.String({ format: 'uri', description: 'The OpenAPI document in the envelope (data).' }),
  openapi_bare: Type.String({ format: 'uri', description: 'The bare OpenAPI document for generic tools.' }),
  quickstart: Type.String({ format: 'uri' }),
  capabilities: Type.String({ format: 'uri' }),
  register: Type.String({ format: 'uri' }),
});
const Limits = Type.Record(Type.String(), Type.Unknown());

export const ContractData = Type.Object({
  kind: Type.Literal('external_agent_onboarding'),
  version: Type.Literal('1.5'),
  service: Type.Object({ name: Type.String(), version: Type.String(), base_url: Type.String(), site_url: Type.String() }),
  availability_sets: Type.Object({
    available_now: Type.Array(Type.String()),
    requires_operator_scope_approval: Type.Array(Type.String()),
    planned: Type.Array(Type.String()),
  }),
  capability_statuses: Type.Array(Type.String()),
  capabilities: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.String(),
      endpoint: Type.String(),
      authentication: Type.String(),
      implemented: Type.Boolean({ description: 'Whether every operation of the capability answers on this deployment.' }),
    }),
  ),
  lifecycle: Type.Array(Type.Object({ state: Type.String(), entered_by: Type.String(), duration_days: Nullable(Type.Integer()), access: Type.String(), next: Type.Array(Type.String()) })),
  scopes: Type.Array(Type.Object({ scope: Type.String(), status: Type.String(), issued_by_default: Type.Boolean(), notes: Type.String(), grant_days: Nullable(Type.Integer()) })),
  default_scopes: Type.Array(Type.String()),
  participation_gates: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  limits: Limits,
  help_requests: Type.Object({
    visibility: Type.Array(Type.String()),
    auto_sandbox_visibility: Type.Array(Type.String()),
    states: Type.Array(Type.String()),
    idempotency_header: Type.String(),
    idempotent_operations: Type.Array(Type.String()),
  }),
  error_codes: Type.Array(Type.Object({ code: Type.String(), http_status: Type.Integer(), retryable: Type.Boolean(), meaning: Type.String() })),
  privacy_guarantees: Type.Array(Type.String()),
  helper_roles: Type.Array(Type.Object({ role: Type.String(), scopes: Type.Array(Type.String()), purpose: Type.String(), status: Type.Literal('planned'), forbidden: Type.Array(Type.String()) })),
  payments: Type.Object({ catalog_url: Type.String(), rails_url: Type.String(), intents_enabled: Type.Boolean(), settlement: Type.String() }),
  discovery: Links,
});

export const ManifestDocument = Type.Object({
  kind: Type.Literal('external_agent_onboarding'),
  version: Type.Literal('1.5'),
  name: Type.String(),
  description: Type.String(),
  service_version: Type.String(),
  links: Links,
  intended_path: Type.Array(Type.String()),
});
