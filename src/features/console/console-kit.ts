import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../platform/errors.js';
import type { PageRequest, PageResponse } from '../../http/pages.js';
import { html, type Html } from '../web/html.js';
import { layout } from '../web/layout.js';
import { CONSOLE_SESSION, type ConsoleSession, type ConsoleSessions } from './console-sessions.js';

/** Double-submit token of the sign-in form (there is no session yet to hold one). */
export const LOGIN_COOKIE = 'bosun_console_login';
/** The audit actor of every console action. */
export const OPERATOR = { kind: 'operator' } as const;

export function cookie(name: string, value: string, req: PageRequest, maxAgeSeconds: number, path = '/console'): string {
  return `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${req.secure ? '; Secure' : ''}`;
}

/** A wait in words: seconds under a minute, whole minutes (rounded up) from there. */
export function inWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export const sameToken = (a: string, b: string | null) => b !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A form POST from another origin is refused whatever its token (browsers send Origin on POST). */
export function foreignOrigin(req: PageRequest): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return typeof origin === 'string';
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

export function signInPage(req: PageRequest, message: Html | null, status = 200): PageResponse {
  const token = randomBytes(24).toString('base64url');
  const main = html`<h1>Operator console</h1>
    ${message}
    <form method="post" action="/console/login">
      <input type="hidden" name="csrf" value="${token}" />
      <label for="password">Operator password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required />
      <p><button type="submit">Sign in</button></p>
    </form>
    <p class="muted">Set the password on the server with <code>bosun operator set-password</code>. Agent API keys do not sign in here.</p>`;
  return { status, html: layout({ title: 'Sign in', main }), cookies: [cookie(LOGIN_COOKIE, token, req, 3600)] };
}

export const forbidden = (why: string): PageResponse => ({
  status: 403,
  html: layout({
    title: 'Refused',
    main: html`<h1>Refused</h1>
      <p class="error">${why}</p>
      <p><a href="/console">Back to the console</a></p>`,
  }),
});

/** A required form field (trimmed); invalid_request when missing. */
export function required(form: URLSearchParams, name: string): string {
  const value = form.get(name)?.trim() ?? '';
  if (value === '') throw new AppError('invalid_request', `${name} is required`, { field: name });
  return value;
}

/** An optional form field (trimmed); undefined when empty. */
export const optional = (form: URLSearchParams, name: string): string | undefined => form.get(name)?.trim() || undefined;

/** The hidden CSRF field every console form carries. */
export const csrfField = (session: ConsoleSession) => html`<input type="hidden" name="csrf" value="${session.csrf}" />`;

/**
 * The two wrappers of console pages (docs/decisions/054): `signedIn` renders for a live session (the
 * sign-in form otherwise); `action` also checks the Origin and the session's CSRF token, runs the
 * action and redirects, or shows a refused action with its error code (never a crash).
 */
export function consoleKit(sessions: ConsoleSessions) {
  const signedIn = (render: (req: PageRequest, session: ConsoleSession) => Promise<PageResponse>) => async (req: PageRequest) => {
    const session = await sessions.resume(req.cookies.get(CONSOLE_SESSION.cookie));
    if (!session) return signInPage(req, null, req.path === '/console' ? 200 : 401);
    return render(req, session);
  };

  const action = (run: (form: URLSearchParams) => Promise<string>) =>
    signedIn(async (req, session) => {
      if (foreignOrigin(req) || !sessions.csrfValid(session, req.form.get('csrf'))) return forbidden('The form is stale or came from another site (CSRF check failed). Reload the page and try again.');
      try {
        return { redirect: await run(req.form) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return {
          status: err.status,
          html: layout({
            title: 'Not done',
            console: session,
            main: html`<h1>Not done</h1>
              <p class="error" role="alert"><code>${err.code}</code>: ${err.message}</p>
              <p>
                <a
                  href="${req.headers.referer && typeof req.headers.referer === 'string' && sameSiteReferer(req) ? new URL(req.headers.referer).pathname + new URL(req.headers.referer).search : '/console'}"
                  >Back</a
                >
              </p>`,
          }),
        };
      }
    });

  return { signedIn, action };
}

/** The Referer of a refused action when it is a console page of this host (the Back link returns there). */
function sameSiteReferer(req: PageRequest): boolean {
  try {
    const url = new URL(String(req.headers.referer));
    return url.host === req.headers.host && url.pathname.startsWith('/console');
  } catch {
    return false;
  }
}

/** What a console action did, told on the page it returns to (`?done=granted&scope=…&agent=…`): fixed sentences, values escaped. */
const CONFIRMATIONS: Record<string, (q: URLSearchParams) => string> = {
  granted: (q) => `Granted ${q.get('scope') ?? 'the scope'} to ${q.get('agent') ?? 'the agent'}.`,
  revoked: (q) => `Revoked ${q.get('agent') ?? 'the agent'}: its key no longer works.`,
  respond: (q) => `Answered request ${q.get('request') ?? ''}; the agent sees the answer.`,
  approve: (q) => `Approved request ${q.get('request') ?? ''}${q.get('scopes') ? `; granted ${q.get('scopes')}` : ''}.`,
  reject: (q) => `Rejected request ${q.get('request') ?? ''}.`,
  close: (q) => `Closed request ${q.get('request') ?? ''}.`,
  hidden: (q) => `Hid post ${q.get('post') ?? ''} (reason ${q.get('reason') ?? 'other'}).`,
  dismissed: (q) => `Dismissed report ${q.get('report') ?? ''}.`,
};

/** The path an action redirects to, with what it did for the confirmation. */
export function doneAt(path: string, done: keyof typeof CONFIRMATIONS, params: Record<string, string> = {}): string {
  return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ done, ...params }).toString()}`;
}

/** The confirmation of the action that led here, or nothing. */
export function confirmation(query: URLSearchParams): Html | null {
  const say = CONFIRMATIONS[query.get('done') ?? ''];
  return say ? html`<p class="confirmation" role="status">${say(query)}</p>` : null;
}
