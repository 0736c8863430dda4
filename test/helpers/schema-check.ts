import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

export interface SchemaChecker {
  /** Throws when a response does not match the schema OpenAPI declares for it. */
  check(method: string, url: string, status: number, contentType: string | undefined, body: unknown): void;
  checked(): number;
}

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };

export function createSchemaChecker(doc: Doc): SchemaChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'bosun:components', components: doc.components });
  const routes = Object.keys(doc.paths).map((path) => ({
    path,
    pattern: new RegExp('^' + path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '/?$'),
  }));
  const cache = new Map<string, ValidateFunction>();
  const errorValidator = ajv.compile({ $ref: 'bosun:components#/components/schemas/ErrorEnvelope' });
  let count = 0;

  const rewriteRefs = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"bosun:components#/components/'));

  return {
    check(method, url, status, contentType, body) {
      const pathname = url.split('?')[0]!;
      const route = routes.find((r) => r.pattern.test(pathname) && doc.paths[r.path]![method.toLowerCase()]);
      if (status >= 400 || !route) {
        // the MCP endpoint speaks JSON-RPC: its protocol errors are JSON-RPC error objects, not envelopes
        if (pathname === '/mcp' && (body as { jsonrpc?: unknown } | undefined)?.jsonrpc === '2.0') return;
        if (contentType?.includes('application/json') && !errorValidator(body) && status >= 400) {
          throw new Error(`error response of ${method} ${url} (${status}) is not the error envelope: ${ajv.errorsText(errorValidator.errors)}`);
        }
        if (status >= 400) count++;
        return;
      }
      const operation = doc.paths[route.path]![method.toLowerCase()];
      const response = operation.responses[String(status)];
      if (!response) throw new Error(`${method} ${url} answered ${status}, which OpenAPI does not declare`);
      if (!response.content) return; // a response without a body (304)
      // a response may offer several media types (a document enveloped or bare): check the one served
      const served = contentType?.split(';')[0]?.trim().toLowerCase();
      const media = Object.keys(response.content).find((m) => m === served) ?? Object.keys(response.content)[0]!;
      if (!media.includes('json')) return;
      const key = `${route.path} ${method} ${status} ${media}`;
      let validate = cache.get(key);
      if (!validate) {
        validate = ajv.compile(rewriteRefs(response.content[media].schema) as object);
        cache.set(key, validate);
      }
      if (!validate(body)) {
        throw new Error(`response of ${method} ${url} (${status}) does not match its OpenAPI schema: ${ajv.errorsText(validate.errors)}`);
      }
      count++;
    },
    checked: () => count,
  };
}
