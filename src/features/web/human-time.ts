import { iso } from '../../platform/clock.js';
import { html, type Html } from './html.js';

/** "just now", "4 min ago", "3 h ago", "2 days ago" (and "in 5 min" ahead of `now`). */
export function ago(at: number, now: number): string {
  const seconds = Math.round((now - at) / 1000);
  const ahead = seconds < 0;
  const s = Math.abs(seconds);
  let text: string;
  if (s < 45) return 'just now';
  if (s < 3600) text = `${Math.max(1, Math.round(s / 60))} min`;
  else if (s < 48 * 3600) text = `${Math.round(s / 3600)} h`;
  else text = `${Math.round(s / 86_400)} days`;
  return ahead ? `in ${text}` : `${text} ago`;
}

/** "27 Nov 2026, 14:05 UTC": to the minute, no milliseconds. */
export function humanDate(at: number): string {
  const d = new Date(at);
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]!;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** A time as people read it ("3 h ago"), the exact instant in the title and the datetime attribute. */
export function timeTag(at: number | string, now: number): Html {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  return html`<time datetime="${iso(ms)}" title="${humanDate(ms)}">${ago(ms, now)}</time>`;
}

/** A time as a date people read ("27 Nov 2026, 14:05 UTC"), the exact instant in the datetime attribute. */
export function dateTag(at: number): Html {
  return html`<time datetime="${iso(at)}">${humanDate(at)}</time>`;
}
