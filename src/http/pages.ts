import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DependencyUnavailableError } from '../platform/dependency.js';

/**
 * Pages of the site (HTML for people, not operations of the catalog): server-rendered, registered in
 * their own Fastify context so that their form bodies (application/x-www-form-urlencoded) and
 * cookies never reach the API routes, which keep answering JSON only (docs/decisions/054).
 */
export interface PageRequest {
  method: string;
  /** The path without the query. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Form fields of a POST (application/x-www-form-urlencoded); empty otherwise. */
  form: URLSearchParams;
  cookies: ReadonlyMap<string, string>;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  ip: string;
  /** https when the request came over TLS (or a trusted proxy says so). */
  secure: boolean;
  /** The service's public base URL (configured, else from the request's protocol and Host). */
  baseUrl: string;
}

export interface PageResponse {
  status?: number;
  /** A redirect target (303 See Other unless status says otherwise). */
  redirect?: string;
  html?: string;
  /** Any other body, with its content type (e.g. a JSON feed a page script reads, or an asset). */
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Set-Cookie values, written as they are. */
  cookies?: string[];
}

export interface PageDefinition {
  method: 'GET' | 'POST';
  path: string;
  handler(request: PageRequest): Promise<PageResponse>;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';
const FORM_LIMIT_BYTES = 64 * 1024;

/** Security headers every page carries (site pages, and the catalog's HTML operations): no framing, no sniffing, scripts and styles only from this origin. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (!cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(raw));
      } catch {
        cookies.set(name, raw);
      }
    }
  }
  return cookies;
}

export interface PageLayerOptions {
  onError(err: unknown, path: string): void;
  baseUrl(req: FastifyRequest): string;
  /**
   * Answers a data page (JSON, GeoJSON) whose store or Redis is unavailable: the API's 503
   * dependency_unavailable envelope with Retry-After. HTML pages answer a 503 page instead.
   */
  unavailableData(req: FastifyRequest, reply: FastifyReply, err: DependencyUnavailableError): FastifyReply;
}

/** A page whose dependency is away: 503 with Retry-After, as the API answers (issue 24 item 4). */
const unavailablePage = (err: DependencyUnavailableError): PageResponse => ({
  status: 503,
  headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  html: `<!doctype html><title>Temporarily unavailable</title><h1>Temporarily unavailable</h1><p>${err.dependency === 'store' ? 'The database' : 'Redis'} is unavailable right now; try again in ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds.</p>`,
});

/** Pages serving data rather than HTML, by their path's extension. */
const DATA_PAGE = /\.(geo)?json$/;

export function registerPages(app: FastifyInstance, pages: readonly PageDefinition[], options: PageLayerOptions): void {
  if (pages.length === 0) return;
  void app.register(async (site) => {
    site.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_req, body, done) => done(null, new URLSearchParams(body as string)));
    for (const page of pages) {
      site.route({
        method: page.method,
        url: page.path,
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          if (req.bosun) req.bosun.page = page.path;
          const url = new URL(req.url, 'http://site.invalid');
          const request: PageRequest = {
            method: req.method,
            path: url.pathname,
            params: (req.params ?? {}) as Record<string, string>,
            query: url.searchParams,
            form: req.body instanceof URLSearchParams ? req.body : new URLSearchParams(),
            cookies: parseCookies(req.headers.cookie),
            headers: req.headers,
            ip: req.ip,
            secure: req.protocol === 'https',
            baseUrl: options.baseUrl(req),
          };
          let response: PageResponse;
          try {
            response = await page.handler(request);
          } catch (err) {
            if (err instanceof DependencyUnavailableError) {
              if (DATA_PAGE.test(url.pathname)) return options.unavailableData(req, reply, err);
              response = unavailablePage(err);
            } else {
              options.onError(err, url.pathname);
              response = { status: 500, html: '<!doctype html><title>Error</title><h1>Something went wrong</h1><p>The error is logged with this request.</p>' };
            }
          }
          for (const [name, value] of Object.entries({ ...PAGE_SECURITY_HEADERS, ...response.headers })) reply.header(name, value);
          if (response.cookies?.length) reply.header('set-cookie', response.cookies);
          if (response.redirect !== undefined)
            return reply
              .code(response.status ?? 303)
              .header('location', response.redirect)
              .send();
          reply.code(response.status ?? 200);
          if (response.html !== undefined) return reply.type('text/html; charset=utf-8').send(response.html);
          return reply.type(response.contentType ?? 'application/octet-stream').send(response.body ?? '');
        },
      });
    }
  });
}
