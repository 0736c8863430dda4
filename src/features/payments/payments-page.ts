import type { PaymentRail } from '../../config.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The display-only payments catalog of {site_url}/payments: destinations, no RPC, no settlement. */
export function renderPaymentsPage(rails: readonly PaymentRail[], intentsEnabled: boolean, apiBase: string): string {
  const rows = rails.map((r) => `<tr><td>${escapeHtml(r.label)}</td><td>${escapeHtml(r.network)}</td><td>${escapeHtml(r.token)}</td><td><code>${escapeHtml(r.address)}</code></td></tr>`).join('\n');
  const table = rails.length
    ? `<table><thead><tr><th>Destination</th><th>Network</th><th>Token</th><th>Address</th></tr></thead><tbody>\n${rows}\n</tbody></table>`
    : '<p>No payment destinations are configured on this deployment.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payments — Bosun</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.4rem;text-align:left}code{word-break:break-all}</style>
</head><body>
<h1>Payments</h1>
<p>This page only displays destinations. Bosun makes no blockchain calls, holds no private keys, settles nothing and delivers nothing automatically; confirmation is manual.
Optional contributions are separate from agent-to-agent helper payments, which are planned only.</p>
${table}
<p>Payment intents through the API are <strong>${intentsEnabled ? 'enabled (manual review of every proof)' : 'disabled'}</strong> on this deployment.
Machine-readable: <a href="${escapeHtml(apiBase)}/v1/payments/rails">${escapeHtml(apiBase)}/v1/payments/rails</a>.</p>
</body></html>
`;
}
