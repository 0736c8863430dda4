import { getIssues } from '@placemarkio/check-geojson';
import { windingIssues } from '../../src/geo/winding.js';

interface FeatureLike {
  id?: unknown;
  geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  properties: Record<string, unknown> | null;
}

/**
 * What keeps a document from being RFC 7946 GeoJSON as Bosun serves it: the structural issues
 * @placemarkio/check-geojson finds, polygon rings wound against §3.1.6 (it does not check winding),
 * and attribution: a non-empty `attribution` on the collection and, when `perFeature`, a non-empty
 * `properties.attribution` on every feature.
 */
export function rfc7946Issues(doc: unknown, options: { perFeature: boolean }): string[] {
  const issues = getIssues(JSON.stringify(doc)).map((i) => `structure: ${i.message}`);
  const collection = doc as { type?: string; features?: FeatureLike[]; attribution?: unknown };
  if (collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) return [...issues, 'not a FeatureCollection'];
  const attribution = collection.attribution;
  const attributed = (v: unknown) => (typeof v === 'string' && v.length > 0) || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && x.length > 0));
  if (collection.features.length > 0 && !attributed(attribution)) issues.push('collection: no attribution');
  collection.features.forEach((f, i) => {
    const name = `feature ${i}${f.id === undefined ? '' : ` (${JSON.stringify(f.id)})`}`;
    if (f.geometry) for (const w of windingIssues(f.geometry)) issues.push(`${name}: ${w}`);
    if (options.perFeature && !attributed(f.properties?.attribution)) issues.push(`${name}: no properties.attribution`);
  });
  return issues;
}
