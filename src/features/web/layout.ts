import { html, type Html } from './html.js';

export interface LayoutOptions {
  title: string;
  /** The console navigation instead of the public one. */
  console?: { csrf: string } | null;
  /** Scripts of this page (served by Bosun under /assets). */
  scripts?: readonly string[];
  styles?: readonly string[];
  /** A class on <body> for a page laid out differently (the map fills the window). */
  pageClass?: string;
  main: Html;
}

const PUBLIC_NAV: ReadonlyArray<[string, string]> = [
  ['/', 'Bosun'],
  ['/map', 'Live map'],
  ['/agents-forum', 'Agents forum'],
  ['/docs', 'API docs'],
  ['/payments', 'Payments'],
  ['/console', 'Operator console'],
];

const CONSOLE_NAV: ReadonlyArray<[string, string]> = [
  ['/console', 'Status'],
  ['/console/telemetry', 'Telemetry'],
  ['/console/agents', 'Agents'],
  ['/console/operator-requests', 'Operator requests'],
  ['/console/moderation', 'Moderation'],
  ['/console/map', 'Live map'],
  ['/console/feeds', 'Feeds'],
  ['/console/trials', 'Trials'],
  ['/console/payments', 'Payments'],
  ['/console/feedback', 'Feedback'],
  ['/console/exchange', 'Exchange'],
  ['/console/routes', 'Routes'],
  ['/', 'Public site'],
];

/** The one layout of every page: skip link, navigation, main landmark, footer. */
export function layout(options: LayoutOptions): string {
  const nav = options.console ? CONSOLE_NAV : PUBLIC_NAV;
  const signOut = options.console
    ? html`<form method="post" action="/console/logout" class="signout"><input type="hidden" name="csrf" value="${options.console.csrf}" /><button type="submit">Sign out</button></form>`
    : null;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>${options.title} — Bosun</title>
        <link rel="stylesheet" href="/assets/site.css" />
        ${(options.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}" />`)}
      </head>
      <body${options.pageClass ? html` class="${options.pageClass}"` : null}>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <nav aria-label="${options.console ? 'Console' : 'Site'}">
            <ul>
              ${nav.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}
            </ul>
            ${signOut}
          </nav>
        </header>
        <main id="main">${options.main}</main>
        <footer><p>Bosun — an open maritime information service for software agents. Simulated data is always labelled as such.</p></footer>
        ${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
      </body>
    </html> `.text;
}

export const SITE_CSS = `:root{color-scheme:light;--ink:#14202b;--muted:#4a5a68;--line:#c9d3dc;--accent:#0b5394;--bg:#fff;--warn:#8a4b00}
*{box-sizing:border-box}body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--ink);background:var(--bg);margin:0}
a{color:var(--accent)}a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #f4b400;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:10}
header{border-bottom:1px solid var(--line);background:#f3f6f9}header nav{display:flex;align-items:center;justify-content:space-between;max-width:72rem;margin:0 auto;padding:.5rem 1rem}
header ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;margin:0;padding:0}
main{max-width:72rem;margin:1.5rem auto;padding:0 1rem}footer{max-width:72rem;margin:2rem auto;padding:0 1rem;color:var(--muted);font-size:.9rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid var(--line);padding:.4rem;text-align:left;vertical-align:top}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;padding:0;list-style:none}
.figures li{border:1px solid var(--line);border-radius:.4rem;padding:.75rem}.figures strong{display:block;font-size:1.6rem}
.notice{border-left:4px solid var(--warn);padding:.5rem 1rem;background:#fff6e5}.error{border-left:4px solid #b00020;padding:.5rem 1rem;background:#fdecee}
form.inline{display:inline}label{display:block;margin:.5rem 0 .2rem}input,select,textarea{font:inherit;padding:.3rem}button{font:inherit;padding:.3rem .8rem;cursor:pointer}
code{word-break:break-all}.muted{color:var(--muted)}
.tabs{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0}[aria-current=page]{font-weight:700}.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
pre{overflow:auto;max-width:100%}img,svg,canvas{max-width:100%}
dl.pairs{display:grid;grid-template-columns:minmax(7rem,max-content) minmax(0,1fr);gap:.25rem 1rem;margin:.5rem 0}dl.pairs dt{font-weight:600}dl.pairs dd{margin:0;overflow-wrap:anywhere}
.status-list{margin:0;padding-left:1.2rem}.component{border-top:1px solid var(--line);padding-top:.5rem}
.confirmation{border-left:4px solid #1b7f3b;padding:.5rem 1rem;background:#e9f6ee}
ul.scopes{margin:0;padding-left:1rem}ol.replies{list-style:none;margin:.5rem 0 .5rem 1.2rem;padding-left:.8rem;border-left:3px solid var(--line)}
@media (max-width:40rem){
header nav{flex-wrap:wrap;gap:.5rem}header ul{gap:.3rem .9rem}main{margin-top:1rem}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.cards tr{border:1px solid var(--line);border-radius:.4rem;margin:0 0 .8rem;padding:.3rem .5rem}table.cards td{border:0;padding:.2rem 0;overflow-wrap:anywhere}
table.cards td::before{content:attr(data-label);display:block;font-size:.8rem;color:var(--muted)}
input,select,textarea{max-width:100%}textarea{width:100%}
}
`;
