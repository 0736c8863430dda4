import { dateTag } from '../web/human-time.js';
import { CATALOG } from '../../catalog/entries.js';
import { dataTable, html, type Html } from '../web/html.js';
import { TICKET_KINDS, TICKET_STATES, type OperatorStep } from '../feedback/feedback-service.js';
import { proofFlags } from '../payments/payments-service.js';
import { csrfField } from './console-kit.js';
import { statusValueView } from './console-status.js';
import type { ConsoleSession } from './console-sessions.js';
import type { Services } from '../../platform/services.js';

/**
 * The pages of the console's operations views (console-ops-pages.ts): each is a pure function of what the
 * handler read from its service, the page's main content without the layout.
 */

export type OpsServices = Pick<Services, 'meta' | 'telemetry' | 'trials' | 'payments' | 'feedback' | 'exchangeGate' | 'routes'>;
type MetaStatus = Awaited<ReturnType<OpsServices['meta']['status']>>;
type Trial = Awaited<ReturnType<OpsServices['trials']['list']>>[number];
type PaymentForOperator = Awaited<ReturnType<OpsServices['payments']['listForOperator']>>[number];
type TicketForOperator = Awaited<ReturnType<OpsServices['feedback']['findForOperator']>>;
type TicketRow = Awaited<ReturnType<OpsServices['feedback']['listForOperator']>>[number];
type ExchangeBan = Awaited<ReturnType<OpsServices['exchangeGate']['bans']>>[number];
type TelemetryQuality = Awaited<ReturnType<OpsServices['telemetry']['quality']>>;
type RoutesStatus = ReturnType<OpsServices['routes']['status']>;

interface FeedSourceJson {
  name: string;
  kind: string;
  state: string;
  simulated: boolean;
  lines: number;
  messages: number;
  /** Lines refused, by reason (bad_checksum, …). */
  errors: Record<string, number>;
  reconnects: number;
  last_message_at: string | null;
  last_observed_at: string | null;
  last_error: string | null;
}

/** The steps a feedback ticket in a state can take (the service refuses the others with conflict). */
const STEPS_FROM: Record<string, readonly OperatorStep[]> = {
  open: ['triage', 'accept', 'reject', 'close'],
  triaged: ['accept', 'reject', 'close'],
  accepted: ['apply', 'reject', 'close'],
  applied: ['revert'],
};

/** Operations of the routes section of the catalog: the route service's telemetry. */
const ROUTE_OPERATIONS = new Set(CATALOG.filter((e) => e.section === 'routes').map((e) => e.operationId));

export const REASON_MAX = 500;

/** Refused lines: the total, then each reason with its count (`12: bad_checksum 10, unsupported 2`). */
export function errorsView(errors: Record<string, number>): string {
  const entries = Object.entries(errors).filter(([, n]) => n > 0);
  if (entries.length === 0) return '0';
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return `${total.toLocaleString('en')}: ${entries.map(([reason, n]) => `${reason.replace(/_/g, ' ')} ${n.toLocaleString('en')}`).join(', ')}`;
}

const perMinute = (count: number, seconds: number) => (seconds <= 0 ? '—' : (count / (seconds / 60)).toFixed(1));

export function feedsView(status: MetaStatus): Html {
  const feeds = ((status.components.feeds as { sources?: FeedSourceJson[] } | undefined)?.sources ?? []) as FeedSourceJson[];
  const fleet = status.components.fleet as Record<string, unknown> | undefined;
  return html`<h1>Feeds and ingest</h1>
    <p>
      The AIS sources of this process (<code>bosun serve</code> / <code>bosun ingest</code>), as <code>/v1/status</code> reports them. Rates are messages per minute over the
      ${Math.floor(status.uptime_seconds / 60)} minutes this process has run. Feeds are configured on the server (<code>FEEDS</code>); the console changes nothing here.
    </p>
    ${
      feeds.length === 0
        ? html`<p>No AIS feed is configured in this process.</p>`
        : dataTable(
            ['Feed', 'Kind', 'State', 'Messages', 'Per minute', 'Errors', 'Reconnects', 'Last message', 'Last error'],
            feeds,
            (f) => [
              html`${f.name}${f.simulated ? html` <em>(simulated)</em>` : null}`,
              f.kind,
              f.state,
              f.messages.toLocaleString('en'),
              perMinute(f.messages, status.uptime_seconds),
              errorsView(f.errors),
              f.reconnects,
              f.last_message_at ?? '—',
              f.last_error ?? '—',
            ],
            (f) => ({ 'data-feed': String(f.name) }),
          )
    }
    <h2>Fleet</h2>
    ${fleet ? statusValueView(fleet) : html`<p>No fleet state in this process.</p>`}`;
}

export function trialsView(rows: Trial[], session: ConsoleSession): Html {
  return html`<h1>Snapshot trials</h1>
    <p>The vessel snapshot trial: scope <code>snapshot:read</code> and one vessel for 7 days (<code>bosun harbor trials …</code>).</p>
    <form method="post" action="/console/trials/grant">
      ${csrfField(session)}
      <label for="trial-agent">Agent id</label>
      <input id="trial-agent" name="agent_id" required />
      <label for="trial-vessel">Vessel (IMO:nnnnnnn, MMSI:nnnnnnnnn or vsl_id)</label>
      <input id="trial-vessel" name="vessel" required />
      <p><button type="submit">Grant a trial</button></p>
    </form>
    <h2>Trials, newest first</h2>
    ${
      rows.length === 0
        ? html`<p>No snapshot trials.</p>`
        : dataTable(['Agent', 'Vessel', 'Granted', 'State', 'Action'], rows, (r) => [
            html`<code>${r.agent_id}</code>`,
            r.vessel_ref,
            dateTag(Number(r.granted_at)),
            html`${r.revoked_at !== null ? 'revoked' : html`until ${dateTag(Number(r.expires_at))}`}`,
            html`${
              r.revoked_at === null
                ? html`<form method="post" action="/console/trials/revoke" class="inline">
                    ${csrfField(session)}<input type="hidden" name="agent_id" value="${r.agent_id}" />
                    <button type="submit" aria-label="Revoke the trial of ${r.agent_id}">Revoke</button>
                  </form>`
                : '—'
            }`,
          ])
    }`;
}

export function paymentsView(rows: PaymentForOperator[], state: string, enabled: boolean, session: ConsoleSession): Html {
  return html`<h1>Payment proofs</h1>
    <p class="notice">
      Payment intents are <strong>${enabled ? 'enabled' : 'disabled'}</strong> on this deployment${enabled ? '' : html` (the API answers <code>payments_disabled</code>)`}. Bosun verifies nothing on a
      chain and delivers nothing automatically: a proof waits in <code>manual_review</code> until you check the transfer yourself and decide here or with <code>bosun payments review</code>. See the
      public <a href="/payments">payments page</a>.
    </p>
    <p>
      ${['manual_review', 'confirmed', 'contribution_recorded', 'rejected', 'expired'].map((s) => html`<a href="/console/payments?state=${s}" ${s === state ? html` aria-current="page"` : null}>${s}</a> `)}
    </p>
    ${
      rows.length === 0
        ? html`<p>No payment intents in ${state}.</p>`
        : rows.map((r) => {
            const flags = proofFlags(r);
            return html`<section aria-labelledby="pay-${r.payment_id}">
              <h2 id="pay-${r.payment_id}"><code>${r.payment_id}</code> · ${r.purpose} · ${r.amount ?? 'pay what you want'} on ${r.rail_id}</h2>
              <p class="muted">from <code>${r.agent_id}</code> · ${dateTag(Number(r.created_at))} · ${r.state}${flags.length ? html` · <strong>flags: ${flags.join(', ')}</strong>` : null}</p>
              ${r.proof ? html`<pre>${JSON.stringify(JSON.parse(r.proof), null, 2)}</pre>` : html`<p>No proof submitted.</p>`} ${r.review_note ? html`<p>Review note: ${r.review_note}</p>` : null}
              ${
                r.state === 'manual_review'
                  ? html`<form method="post" action="/console/payments/review">
                      ${csrfField(session)}<input type="hidden" name="payment_id" value="${r.payment_id}" />
                      <label for="note-${r.payment_id}">Note (kept with the review)</label>
                      <input id="note-${r.payment_id}" name="note" />
                      ${
                        flags.includes('amount_mismatch')
                          ? html`<p>
                              <input type="checkbox" id="mismatch-${r.payment_id}" name="accept_mismatch" value="yes" />
                              <label for="mismatch-${r.payment_id}" class="inline">I checked the transfer and accept the other amount</label>
                            </p>`
                          : null
                      }
                      <p>
                        <button type="submit" name="decision" value="confirm">Confirm</button>
                        <button type="submit" name="decision" value="reject">Reject</button>
                      </p>
                    </form>`
                  : null
              }
            </section>`;
          })
    }`;
}

export function ticketView(t: TicketForOperator, session: ConsoleSession): Html {
  const steps = STEPS_FROM[t.state] ?? [];
  return html`<h1>Ticket <code>${t.ticket_id}</code>: ${t.title}</h1>
    <p class="muted">${t.kind} · ${t.subject.kind}:${t.subject.ref} · from <code>${t.agent_id}</code> · ${t.created_at} · <strong data-state="${t.state}">${t.state}</strong></p>
    <pre>${t.body}</pre>
    ${
      t.evidence.length
        ? html`<h2>Evidence</h2>
            <ul>
              ${t.evidence.map((e) => html`<li>${e}</li>`)}
            </ul>`
        : null
    }
    ${
      t.changes.length
        ? html`<h2>Changes</h2>
            <ul>
              ${t.changes.map((c) => html`<li><code>${c.field}</code> = <code>${JSON.stringify(c.value)}</code></li>`)}
            </ul>`
        : null
    }
    ${
      t.overrides.length
        ? html`<h2>Overrides</h2>
            <ul>
              ${t.overrides.map((o) => html`<li><code>${o.field}</code> = <code>${JSON.stringify(o.value)}</code> applied ${o.applied_at}${o.reverted_at ? `, reverted ${o.reverted_at}` : ''}</li>`)}
            </ul>`
        : null
    }
    ${t.public_response ? html`<p>Public response: ${t.public_response}</p>` : null} ${t.internal_note ? html`<p>Internal note: ${t.internal_note}</p>` : null}
    ${
      steps.length === 0
        ? html`<p>No further step: the ticket is ${t.state}.</p>`
        : html`<form method="post" action="/console/feedback/step">
            ${csrfField(session)}<input type="hidden" name="ticket_id" value="${t.ticket_id}" />
            <label for="public">Public response (the author sees it; required to reject)</label>
            <textarea id="public" name="public_response" rows="2" cols="60"></textarea>
            <label for="note">Internal note</label>
            <input id="note" name="internal_note" />
            <p>${steps.map((s) => html`<button type="submit" name="step" value="${s}">${s[0]!.toUpperCase() + s.slice(1)}</button> `)}</p>
          </form>`
    }
    <p><a href="/console/feedback">All tickets</a></p>`;
}

export function ticketsView(rows: TicketRow[], filter: { state: string | undefined; kind: string | undefined }): Html {
  const { state, kind } = filter;
  return html`<h1>Feedback tickets</h1>
    <p>Corrections, data requests and metric proposals from agents (<code>bosun feedback …</code>). An applied correction is served as an override, flagged <code>operator_corrected</code>.</p>
    <form method="get" action="/console/feedback">
      <label for="f-state">State</label>
      <select id="f-state" name="state">
        <option value="">any</option>
        ${TICKET_STATES.map((s) => html`<option ${s === state ? html`selected` : null}>${s}</option>`)}
      </select>
      <label for="f-kind">Kind</label>
      <select id="f-kind" name="kind">
        <option value="">any</option>
        ${TICKET_KINDS.map((k) => html`<option ${k === kind ? html`selected` : null}>${k}</option>`)}
      </select>
      <p><button type="submit">Filter</button></p>
    </form>
    ${
      rows.length === 0
        ? html`<p>No feedback tickets.</p>`
        : dataTable(['Ticket', 'State', 'Kind', 'Subject', 'Title', 'From'], rows, (r) => [
            html`<a href="/console/feedback?ticket=${r.ticket_id}"><code>${r.ticket_id}</code></a>`,
            r.state,
            r.kind,
            html`${r.subject_kind}:${r.subject_ref}`,
            r.title,
            html`<code>${r.agent_id}</code>`,
          ])
    }`;
}

export function exchangeView(bans: ExchangeBan[], kinds: string[], session: ConsoleSession): Html {
  const kindSelect = (id: string) =>
    html`<label for="${id}">Record kind</label>
      <select id="${id}" name="kind">
        ${kinds.map((k) => html`<option>${k}</option>`)}
      </select>`;
  return html`<h1>Exchange moderation</h1>
    <p>
      Bans and hidden records of the agent exchange (<code>bosun exchange …</code>). A banned agent gets <code>exchange_banned</code> from every exchange operation; a hidden record vanishes from every
      listing, read and stream.
    </p>
    <h2>Hide a record</h2>
    <form method="post" action="/console/exchange/hide">
      ${csrfField(session)} ${kindSelect('hide-kind')}
      <label for="hide-id">Record id</label>
      <input id="hide-id" name="id" required />
      <label for="hide-reason">Reason</label>
      <input id="hide-reason" name="reason" required maxlength="${REASON_MAX}" />
      <p><button type="submit">Hide</button></p>
    </form>
    <h2>Restore a hidden record</h2>
    <form method="post" action="/console/exchange/restore">
      ${csrfField(session)} ${kindSelect('restore-kind')}
      <label for="restore-id">Record id</label>
      <input id="restore-id" name="id" required />
      <p><button type="submit">Restore</button></p>
    </form>
    <h2>Ban an agent</h2>
    <form method="post" action="/console/exchange/ban">
      ${csrfField(session)}
      <label for="ban-agent">Agent id</label>
      <input id="ban-agent" name="agent_id" required />
      <label for="ban-reason">Reason (the agent sees it)</label>
      <input id="ban-reason" name="reason" required maxlength="${REASON_MAX}" />
      <p><button type="submit">Ban</button></p>
    </form>
    <h2>Banned agents</h2>
    ${
      bans.length === 0
        ? html`<p>No agent is banned from the exchange.</p>`
        : dataTable(['Agent', 'Banned', 'Reason', 'Action'], bans, (b) => [
            html`<code>${b.agent_id}</code>`,
            dateTag(Number(b.banned_at)),
            b.reason,
            html`<form method="post" action="/console/exchange/unban" class="inline">
              ${csrfField(session)}<input type="hidden" name="agent_id" value="${b.agent_id}" />
              <button type="submit" aria-label="Lift the ban of ${b.agent_id}">Unban</button>
            </form>`,
          ])
    }`;
}

export function routesView(quality: TelemetryQuality, routesStatus: RoutesStatus): Html {
  const operations = quality.operations.filter((o) => ROUTE_OPERATIONS.has(o.operation_id));
  const requests = operations.reduce((sum, o) => sum + o.requests, 0);
  const { engine, answerCache: cache } = routesStatus;
  return html`<h1>Route service</h1>
    <p>
      Telemetry of the ${ROUTE_OPERATIONS.size} operations of the routes section over the last 24 hours: ${requests} requests of ${quality.window.sample_size}
      recorded${quality.window.truncated ? ' (newest records only)' : ''}.
    </p>
    <h2>Engine and answer cache (this process)</h2>
    <dl class="pairs" data-section="route-engine">
      ${
        engine.loaded
          ? html`<dt>Sea network</dt>
              <dd>loaded in ${Math.round(engine.loadMs)} ms, ${(engine.bytes / 1048576).toFixed(1)} MiB, resolution ${engine.resolutionKm} km</dd>
              <dt>Data</dt>
              <dd>${engine.attribution.join('; ')}</dd>`
          : html`<dt>Sea network</dt>
              <dd>not loaded yet (it loads on the first route asked of this process)</dd>`
      }
      <dt>Answers cached</dt>
      <dd data-figure="cache-entries">${cache.entries} of ${cache.capacity}</dd>
      <dt>Hits / misses</dt>
      <dd data-figure="cache-hits">${cache.hits} / ${cache.misses}${cache.hits + cache.misses > 0 ? ` (hit rate ${((100 * cache.hits) / (cache.hits + cache.misses)).toFixed(1)} %)` : ''}</dd>
      <dt>Evicted / cleared</dt>
      <dd>${cache.evictions} evicted (least recently used), cleared ${cache.clears} times (the port table changed)</dd>
    </dl>
    ${
      operations.length === 0
        ? html`<p>No route operation was called in the last 24 hours.</p>`
        : dataTable(['Operation', 'Requests', 'Success rate', 'p50 ms', 'p95 ms'], operations, (o) => [
            html`<code>${o.operation_id}</code>`,
            o.requests,
            o.success_rate ?? '—',
            o.latency_ms.p50 ?? '—',
            o.latency_ms.p95 ?? '—',
          ])
    }`;
}
