export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Stability = 'stable' | 'beta' | 'experimental';
/** P: no credential needed; K: agent key; U: restricted to the operator or an agent holding ops:read. */
export type AccessClass = 'P' | 'K' | 'U';

export type Section =
  | 'meta' | 'billing' | 'vessels' | 'ports' | 'sts' | 'metrics' | 'layers' | 'routes' | 'feedback'
  | 'exchange' | 'workspace' | 'services' | 'agents' | 'harbor' | 'payments' | 'discovery' | 'site';

export type RatePolicyName = 'anonymous_preview' | 'registration' | 'snapshot_trial';

export interface CatalogEntry {
  operationId: string;
  method: HttpMethod;
  /** Path as the documents write it, `{name}` for path parameters. */
  path: string;
  stability: Stability;
  /** x-cost-units-hint: what a successful call charges (see docs/decisions/003-cost-units.md). */
  cost: number;
  access: AccessClass;
  /** Scopes every caller of the operation must hold (agents; the operator holds all). */
  scopes: readonly string[];
  section: Section;
  summary: string;
  /** Extra limit policies on top of the per-caller default. */
  ratePolicies?: readonly RatePolicyName[];
  /** Meta and discovery calls that charge nothing even on success. */
  free?: boolean;
  /** Served as a bare document (OpenAPI, discovery JSON, HTML) instead of the envelope on success. */
  bare?: 'json' | 'html' | 'text';
  /**
   * 'closed': not part of public discovery (harbor 4.3): left out of the public OpenAPI, capabilities,
   * examples and the service directory; the operator's OpenAPI lists it.
   */
  discovery?: 'closed';
}
