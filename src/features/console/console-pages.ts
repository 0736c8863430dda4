import { GRANTABLE_SCOPES } from '../../access/scopes.js';
import { AppError } from '../../platform/errors.js';
import type { PageDefinition } from '../../http/pages.js';
import type { Services } from '../../platform/services.js';
import { dataTable, html } from '../web/html.js';
import { layout } from '../web/layout.js';
import { dateTag } from '../web/human-time.js';
import { barChart } from './charts.js';
import { chartAssetPages, CHART_SCRIPTS, CHART_STYLES } from './chart-assets.js';
import { HIDE_REASONS, type HideReason } from '../harbor/groups/group-rules.js';
import { CONSOLE_SESSION, type ConsoleSessions } from './console-sessions.js';
import { confirmation, consoleKit, cookie, doneAt, forbidden, foreignOrigin, inWords, LOGIN_COOKIE, OPERATOR, required, sameToken, signInPage } from './console-kit.js';
import { statusView } from './console-status.js';
import { consoleOpsPages, type ConsoleOpsDeps } from './console-ops-pages.js';

export interface ConsoleDeps {
  sessions: ConsoleSessions;
  services: Pick<Services, 'meta' | 'agents' | 'operatorRequests' | 'telemetry' | 'groups'> & ConsoleOpsDeps['services'];
}

const TELEMETRY_WINDOWS: Record<string, { hours: number; bucketMinutes: number }> = {
  '1h': { hours: 1, bucketMinutes: 1 },
  '24h': { hours: 24, bucketMinutes: 30 },
  '7d': { hours: 168, bucketMinutes: 360 },
};

const REQUEST_STATES = ['open', 'answered', 'approved', 'rejected', 'closed'] as const;

/**
 * The operator console (docs/decisions/054): sign-in with the operator password, a session cookie
 * (HttpOnly, SameSite=Strict, Secure over TLS), a CSRF token on every form, lockout with backoff per
 * address or known browser (docs/decisions/106); each action calls the same service as the CLI, which audits it.
 */
export function consolePages(deps: ConsoleDeps): PageDefinition[] {
  const { sessions, services } = deps;

  const { signedIn, action } = consoleKit(sessions);

  return [
    {
      method: 'POST',
      path: '/console/login',
      async handler(req) {
        if (foreignOrigin(req) || !sameToken(req.cookies.get(LOGIN_COOKIE) ?? '', req.form.get('csrf')))
          return forbidden('The sign-in form is stale or came from another site. Reload the page and try again.');
        const result = await sessions.signIn(req.form.get('password') ?? '', { ip: req.ip, deviceToken: req.cookies.get(CONSOLE_SESSION.deviceCookie) });
        if (result.ok) {
          return {
            redirect: '/console',
            cookies: [
              cookie(CONSOLE_SESSION.cookie, result.token, req, CONSOLE_SESSION.maxAgeMs / 1000),
              cookie(CONSOLE_SESSION.deviceCookie, result.deviceToken, req, CONSOLE_SESSION.deviceMaxAgeMs / 1000),
              cookie(LOGIN_COOKIE, '', req, 0),
            ],
          };
        }
        if (result.reason === 'locked') {
          const page = signInPage(
            req,
            html`<p class="error" role="alert">
              Too many failed sign-ins from this address (or, if it signed in here before, from this browser). Try again in ${inWords(result.retryAfterSeconds)}; the operator can clear the lock on the
              server with <code>bosun operator unlock-console</code>.
            </p>`,
            429,
          );
          return { ...page, headers: { 'retry-after': String(result.retryAfterSeconds) } };
        }
        if (result.reason === 'no_password')
          return signInPage(req, html`<p class="error" role="alert">No operator password is set on this deployment: run <code>bosun operator set-password</code>.</p>`, 401);
        if (result.lockedForSeconds !== undefined)
          return signInPage(req, html`<p class="error" role="alert">Wrong password. Too many failed sign-ins: sign-in from here is paused for ${inWords(result.lockedForSeconds)}.</p>`, 401);
        return signInPage(req, html`<p class="error" role="alert">Wrong password.</p>`, 401);
      },
    },
    {
      method: 'GET',
      path: '/console/login',
      async handler(req) {
        return (await sessions.resume(req.cookies.get(CONSOLE_SESSION.cookie))) ? { redirect: '/console' } : signInPage(req, null);
      },
    },
    {
      method: 'POST',
      path: '/console/logout',
      async handler(req) {
        const secret = req.cookies.get(CONSOLE_SESSION.cookie);
        const session = await sessions.resume(secret);
        if (!session || !secret) return { redirect: '/console' };
        if (foreignOrigin(req) || !sessions.csrfValid(session, req.form.get('csrf'))) return forbidden('The form is stale or came from another site (CSRF check failed).');
        await sessions.signOut(secret);
        return { redirect: '/console', cookies: [cookie(CONSOLE_SESSION.cookie, '', req, 0)] };
      },
    },
    {
      method: 'GET',
      path: '/console',
      handler: signedIn(async (_req, session) => {
        const main = statusView(await services.meta.status());
        return { html: layout({ title: 'Console', console: session, main }) };
      }),
    },
    {
      method: 'GET',
      path: '/console/telemetry',
      handler: signedIn(async (req, session) => {
        const windowName = TELEMETRY_WINDOWS[req.query.get('window') ?? ''] ? req.query.get('window')! : '1h';
        const { hours, bucketMinutes } = TELEMETRY_WINDOWS[windowName]!;
        const [series, quality] = await Promise.all([services.telemetry.series(hours, bucketMinutes), services.telemetry.quality(hours)]);
        const points = (pick: (b: (typeof series.buckets)[number]) => number | null) => series.buckets.map((b) => ({ label: b.start, value: pick(b) }));
        const main = html`<h1>Telemetry, last ${windowName}</h1>
          <p>
            ${Object.keys(TELEMETRY_WINDOWS).map((w) => html`<a href="/console/telemetry?window=${w}" ${w === windowName ? html` aria-current="page"` : null}>${w}</a> `)}
            <span class="muted">${series.window.sample_size} requests recorded, ${bucketMinutes}-minute buckets${series.window.truncated ? ', newest records only' : ''}.</span>
          </p>
          ${barChart(
            'Requests',
            'requests',
            points((b) => b.requests),
            'requests',
          )}
          ${barChart(
            'Errors (4xx and 5xx)',
            'errors',
            points((b) => b.client_errors + b.server_errors),
            'errors',
          )}
          ${barChart(
            'Latency p95',
            'ms',
            points((b) => b.latency_p95_ms),
            'latency',
          )}
          ${barChart(
            'Cost units',
            'units',
            points((b) => b.cost_units),
            'cost',
          )}
          <h2>By operation</h2>
          ${dataTable(['Operation', 'Requests', 'Success rate', 'p50 ms', 'p95 ms'], quality.operations, (o) => [html`<code>${o.operation_id}</code>`, o.requests, o.success_rate ?? '—', o.latency_ms.p50 ?? '—', o.latency_ms.p95 ?? '—'])}`;
        return { html: layout({ title: 'Telemetry', console: session, main, scripts: CHART_SCRIPTS, styles: CHART_STYLES }) };
      }),
    },
    {
      method: 'GET',
      path: '/console/agents',
      handler: signedIn(async (req, session) => {
        const agents = await services.agents.list({ limit: 200 });
        const scopesOf = new Map((await Promise.all(agents.map((a) => services.agents.describe(a.agent_id)))).map((d) => [d.agent_id, d.scopes]));
        const scopes = [...GRANTABLE_SCOPES].sort();
        const main = html`<h1>Agents</h1>
          ${confirmation(req.query)}
          <p>The newest 200 agents. Actions are the CLI's (<code>bosun agents …</code>) and are audited.</p>
          ${dataTable(['Agent', 'State', 'Registered', 'Scopes', 'Grant a scope', 'Revoke'], agents, (a) => [
            html`<code>${a.agent_id}</code><br />${a.name}${a.vendor ? html` <span class="muted">(${a.vendor})</span>` : null}`,
            a.state,
            dateTag(Number(a.created_at)),
            html`<ul class="scopes">
              ${(scopesOf.get(a.agent_id) ?? []).map((s) => html`<li><code>${s}</code></li>`)}
            </ul>`,
            html`${
              a.state === 'revoked'
                ? '—'
                : html`<form method="post" action="/console/agents/grant" class="inline">
                    <input type="hidden" name="csrf" value="${session.csrf}" /><input type="hidden" name="agent_id" value="${a.agent_id}" />
                    <label for="scope-${a.agent_id}" class="muted">Scope</label>
                    <select id="scope-${a.agent_id}" name="scope" required>
                      <option value="" selected>choose a scope…</option>
                      ${scopes.map((s) => html`<option>${s}</option>`)}
                    </select>
                    <button type="submit">Grant</button>
                  </form>`
            }`,
            html`${
              a.state === 'revoked'
                ? 'revoked'
                : html`<form method="post" action="/console/agents/revoke" class="inline">
                    <input type="hidden" name="csrf" value="${session.csrf}" /><input type="hidden" name="agent_id" value="${a.agent_id}" />
                    <label for="reason-${a.agent_id}" class="muted">Reason</label>
                    <input id="reason-${a.agent_id}" name="reason" required />
                    <button type="submit">Revoke</button>
                  </form>`
            }`,
          ])}`;
        return { html: layout({ title: 'Agents', console: session, main }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/agents/grant',
      handler: action(async (form) => {
        const grant = await services.agents.grantScope(required(form, 'agent_id'), required(form, 'scope'), OPERATOR);
        return doneAt('/console/agents', 'granted', { agent: required(form, 'agent_id'), scope: grant.expires_at ? `${grant.scope} until ${grant.expires_at}` : grant.scope });
      }),
    },
    {
      method: 'POST',
      path: '/console/agents/revoke',
      handler: action(async (form) => {
        await services.agents.revoke(required(form, 'agent_id'), OPERATOR, required(form, 'reason'));
        return doneAt('/console/agents', 'revoked', { agent: required(form, 'agent_id') });
      }),
    },
    {
      method: 'GET',
      path: '/console/moderation',
      handler: signedIn(async (req, session) => {
        const reports = await services.groups.listReports({ state: 'open', limit: 100 });
        const posts = await Promise.all(reports.map((r) => services.groups.findPostForOperator(r.post_id)));
        const main = html`<h1>Moderation: open reports on group posts</h1>
          ${confirmation(req.query)}
          ${
            reports.length === 0
              ? html`<p>No open reports.</p>`
              : reports.map((r, i) => {
                  const post = posts[i];
                  return html`<section aria-labelledby="rep-${r.report_id}">
                    <h2 id="rep-${r.report_id}">Report <code>${r.report_id}</code> on post <code>${r.post_id}</code> (group ${r.group_id})</h2>
                    <p>Reason given by <code>${r.reporter_agent_id}</code>: ${r.reason}</p>
                    ${
                      post
                        ? html`<blockquote>
                            <p>${post.body}</p>
                            <footer>by <code>${post.author_agent_id ?? 'operator'}</code>${post.hidden_at !== null ? html` — hidden (${post.hidden_reason})` : null}</footer>
                          </blockquote>`
                        : html`<p>The post no longer exists.</p>`
                    }
                    <form method="post" action="/console/moderation/hide" class="inline">
                      <input type="hidden" name="csrf" value="${session.csrf}" /><input type="hidden" name="post_id" value="${r.post_id}" />
                      <label for="why-${r.report_id}">Hide the post, reason</label>
                      <select id="why-${r.report_id}" name="reason">
                        ${HIDE_REASONS.map((h) => html`<option ${h === 'other' ? html`selected` : null}>${h}</option>`)}
                      </select>
                      <button type="submit">Hide</button>
                    </form>
                    <form method="post" action="/console/moderation/dismiss" class="inline">
                      <input type="hidden" name="csrf" value="${session.csrf}" /><input type="hidden" name="report_id" value="${r.report_id}" />
                      <button type="submit">Dismiss the report</button>
                    </form>
                  </section>`;
                })
          }`;
        return { html: layout({ title: 'Moderation', console: session, main }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/moderation/hide',
      handler: action(async (form) => {
        const reason = required(form, 'reason');
        if (!(HIDE_REASONS as readonly string[]).includes(reason)) throw new AppError('invalid_request', `reason must be one of ${HIDE_REASONS.join(', ')}`, { field: 'reason' });
        await services.groups.hidePost(required(form, 'post_id'), reason as HideReason, OPERATOR);
        return doneAt('/console/moderation', 'hidden', { post: required(form, 'post_id'), reason });
      }),
    },
    {
      method: 'POST',
      path: '/console/moderation/dismiss',
      handler: action(async (form) => {
        await services.groups.dismissReport(required(form, 'report_id'), OPERATOR);
        return doneAt('/console/moderation', 'dismissed', { report: required(form, 'report_id') });
      }),
    },
    {
      method: 'GET',
      path: '/console/operator-requests',
      handler: signedIn(async (req, session) => {
        const state = req.query.get('state') ?? 'open';
        const rows = await services.operatorRequests.listForOperator({ state: (REQUEST_STATES as readonly string[]).includes(state) ? state : 'open', limit: 100 });
        const main = html`<h1>Operator requests</h1>
          ${confirmation(req.query)}
          <p>${REQUEST_STATES.map((s) => html`<a href="/console/operator-requests?state=${s}" ${s === state ? html` aria-current="page"` : null}>${s}</a> `)}</p>
          ${
            rows.length === 0
              ? html`<p>No ${state} requests.</p>`
              : rows.map(
                  (r) =>
                    html`<section aria-labelledby="req-${r.request_id}">
                      <h2 id="req-${r.request_id}">${r.subject}</h2>
                      <p class="muted"><code>${r.request_id}</code> · ${r.category} · from <code>${r.agent_id}</code> · ${dateTag(Number(r.created_at))} · ${r.state}</p>
                      <pre>${r.body}</pre>
                      ${r.requested_scopes !== '[]' ? html`<p>Requested scopes: ${(JSON.parse(r.requested_scopes) as string[]).map((scope, i) => html`${i > 0 ? ', ' : ''}<code>${scope}</code>`)}</p>` : null}
                      ${r.public_response ? html`<p>Answer: ${r.public_response}</p>` : null}
                      ${
                        r.state === 'open' || r.state === 'answered'
                          ? html`<form method="post" action="/console/operator-requests/decide">
                              <input type="hidden" name="csrf" value="${session.csrf}" /><input type="hidden" name="request_id" value="${r.request_id}" />
                              <label for="answer-${r.request_id}">Public answer</label>
                              <textarea id="answer-${r.request_id}" name="public_response" rows="2" cols="60"></textarea>
                              <p>
                                <button type="submit" name="decision" value="respond">Respond</button>
                                <button type="submit" name="decision" value="approve">Approve${r.requested_scopes !== '[]' ? ' with the requested scopes' : ''}</button>
                                <button type="submit" name="decision" value="reject">Reject</button>
                                <button type="submit" name="decision" value="close">Close</button>
                              </p>
                            </form>`
                          : null
                      }
                    </section>`,
                )
          }`;
        return { html: layout({ title: 'Operator requests', console: session, main }) };
      }),
    },
    {
      method: 'POST',
      path: '/console/operator-requests/decide',
      handler: action(async (form) => {
        const id = required(form, 'request_id');
        const answer = form.get('public_response')?.trim() || undefined;
        const decision = required(form, 'decision');
        if (decision === 'approve') {
          const { grants } = await services.operatorRequests.approve(id, { publicResponse: answer }, OPERATOR);
          return doneAt('/console/operator-requests', 'approve', { request: id, ...(grants.length ? { scopes: grants.map((g) => g.scope).join(', ') } : {}) });
        }
        if (decision === 'respond') await services.operatorRequests.respond(id, { publicResponse: required(form, 'public_response') }, OPERATOR);
        else if (decision === 'reject') await services.operatorRequests.reject(id, { publicResponse: required(form, 'public_response') }, OPERATOR);
        else if (decision === 'close') await services.operatorRequests.close(id, { publicResponse: answer }, OPERATOR);
        else throw new AppError('invalid_request', 'decision must be respond, approve, reject or close', { field: 'decision' });
        return doneAt('/console/operator-requests', decision, { request: id });
      }),
    },
    ...consoleOpsPages({ sessions, services }),
    ...chartAssetPages,
  ];
}
