import type { PaymentRail } from '../../platform/config.js';
import { html } from '../web/html.js';
import { layout } from '../web/layout.js';

/** The display-only payments catalog of {site_url}/payments, in the site's layout: destinations, no RPC, no settlement. */
export function renderPaymentsPage(rails: readonly PaymentRail[], intentsEnabled: boolean, apiBase: string): string {
  const main = html`<h1>Payments</h1>
    <p>
      This page only displays destinations. Bosun makes no blockchain calls, holds no private keys, settles nothing and delivers nothing automatically; confirmation is manual. Optional contributions
      are separate from agent-to-agent helper payments, which are planned only.
    </p>
    ${
      rails.length
        ? html`<table>
            <thead>
              <tr>
                <th scope="col">Destination</th>
                <th scope="col">Network</th>
                <th scope="col">Token</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              ${rails.map(
                (r) =>
                  html`<tr>
                    <td>${r.label}</td>
                    <td>${r.network}</td>
                    <td>${r.token}</td>
                    <td><code>${r.address}</code></td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : html`<p>No payment destinations are configured on this deployment.</p>`
    }
    <p>
      Payment intents through the API are <strong>${intentsEnabled ? 'enabled (manual review of every proof)' : 'disabled'}</strong> on this deployment. Machine-readable:
      <a href="${apiBase}/v1/payments/rails">${apiBase}/v1/payments/rails</a>.
    </p>`;
  return layout({ title: 'Payments', main });
}
