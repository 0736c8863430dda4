import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PageDefinition } from '../../http/pages.js';

/**
 * The telemetry charts' progressive enhancement (docs/decisions/061): uPlot from its npm package,
 * served by Bosun (no CDN), draws each server-rendered SVG chart's data as an interactive chart; the
 * SVG stays in the page as the no-script fallback and, visually hidden, as the text alternative.
 */
export const CHART_SCRIPTS = ['/assets/uplot/uPlot.iife.min.js', '/assets/console-charts.js'] as const;
export const CHART_STYLES = ['/assets/uplot/uPlot.min.css'] as const;

/** Reads each svg[data-chart] (its data-labels and data-values) and draws a uPlot bar chart above it; without uPlot nothing changes. */
const CONSOLE_CHARTS_JS = `(function () {
  'use strict';
  var U = window.uPlot;
  if (!U) return;
  var charts = document.querySelectorAll('svg[data-chart][data-values]');
  Array.prototype.forEach.call(charts, function (svg) {
    var labels = JSON.parse(svg.getAttribute('data-labels') || '[]');
    var values = JSON.parse(svg.getAttribute('data-values') || '[]');
    if (labels.length === 0) return;
    var xs = labels.map(function (l) { return Date.parse(l) / 1000; });
    var box = document.createElement('div');
    box.className = 'uplot-chart';
    box.setAttribute('aria-hidden', 'true');
    svg.parentNode.insertBefore(box, svg);
    var width = Math.max(320, svg.parentNode.clientWidth || 720);
    var bars = U.paths && U.paths.bars ? U.paths.bars({ size: [0.8, 64] }) : undefined;
    new U({
      width: width,
      height: 180,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      series: [{}, { label: svg.getAttribute('data-unit') || '', stroke: '#0b5394', fill: 'rgba(11,83,148,0.25)', paths: bars, points: { show: false } }],
      axes: [{}, { size: 60 }],
    }, [xs, values], box);
    svg.classList.add('sr-only');
    svg.parentNode.setAttribute('data-enhanced', 'uplot');
  });
})();
`;

const require = createRequire(import.meta.url);
const cache = new Map<string, string>();
function packageFile(spec: string): string {
  let text = cache.get(spec);
  if (text === undefined) {
    text = readFileSync(require.resolve(spec), 'utf8');
    cache.set(spec, text);
  }
  return text;
}

const LONG_CACHE = { 'cache-control': 'public, max-age=86400' };

export const chartAssetPages: PageDefinition[] = [
  {
    method: 'GET',
    path: '/assets/uplot/uPlot.iife.min.js',
    handler: async () => ({ body: packageFile('uplot/dist/uPlot.iife.min.js'), contentType: 'text/javascript; charset=utf-8', headers: LONG_CACHE }),
  },
  {
    method: 'GET',
    path: '/assets/uplot/uPlot.min.css',
    handler: async () => ({ body: packageFile('uplot/dist/uPlot.min.css'), contentType: 'text/css; charset=utf-8', headers: LONG_CACHE }),
  },
  {
    method: 'GET',
    path: '/assets/console-charts.js',
    handler: async () => ({ body: CONSOLE_CHARTS_JS, contentType: 'text/javascript; charset=utf-8', headers: { 'cache-control': 'public, max-age=3600' } }),
  },
];
