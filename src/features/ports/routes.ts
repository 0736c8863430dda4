import { defineRoute } from '../kit/route.js';
import { PortAreasData, PortAreasParams, PORTS_SEARCH_LIMIT_MAX, PortsSearchData, PortsSearchQuery } from './schemas.js';

const search = defineRoute({
  operationId: 'getPortsSearch',
  description: `Search the port table: about 17,900 ports from the World Port Index joined to UN/LOCODE, with Global Fishing Watch anchorage points. q (or name): a port name, an alternate name or a UN/LOCODE, diacritics and case ignored, one typo forgiven from 4 characters and two from 8 ("Rotterdm" finds Rotterdam). Filters: locode, country (ISO alpha-2), near=lat,lon with radius_km (default 50). Give at least one of q/name, locode, country, near. Ranked: exact, prefix, contains, then typo matches; among equals the nearer (with near), then the larger harbour. port_id is the World Port Index number where the port has one. Ports whose sources disagree by more than 20 km carry the flag coordinate_conflict with both positions. Each port links its berth and anchorage areas (areas_url, GeoJSON). limit 1-${PORTS_SEARCH_LIMIT_MAX}; page with next_cursor (same query).`,
  query: PortsSearchQuery,
  response: PortsSearchData,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [
    { summary: 'By name', query: { name: 'Rotterdam', limit: 3 } },
    { summary: 'A typo', query: { q: 'Rotterdm', limit: 3 } },
    { summary: 'Ports near Galveston Bay', query: { near: '29.5,-94.9', radius_km: 50, limit: 10 } },
    { summary: 'By UN/LOCODE', query: { locode: 'SGSIN' } },
  ],
  async handler({ query }, call) {
    const found = await call.services.ports.search({ ...query, limit: query.limit ?? 20 });
    const items = found.data.items.map((item) => ({ ...item, areas_url: `${call.baseUrl}/v1/ports/${item.port_id}/areas` }));
    return { ...found, data: { ...found.data, items } };
  },
});

const areas = defineRoute({
  operationId: 'getPortsByPortIdAreas',
  description:
    'Bosun extension (beyond the interface documents): the berth and anchorage areas of a port as a GeoJSON FeatureCollection, one MultiPolygon of 0.005° grid cells per area. Provenance gfw: cells of the Global Fishing Watch anchorage points assigned to the port; learnt: cells where at least two distinct vessels stopped in the port calls Bosun detected; operator: set by the operator. kind (berth or anchorage) is by how ships behaved in the stops there (swinging at anchor or AIS status 1: anchorage), with a confidence and the evidence counts (vessels, stops, anchor_stops, gfw_points). Empty until the operator runs bosun events areas rebuild. Port calls are detected on these areas. Correct one with POST /v1/feedback/correction (subject kind area, id its area_key). Method: docs/decisions/116, 120, 121.',
  params: PortAreasParams,
  response: PortAreasData,
  errors: ['invalid_request', 'port_not_found'],
  examples: [{ summary: 'Houston', params: { port_id: '9240' } }],
  async handler({ params }, call) {
    return call.services.events.areas.geojson(params.port_id);
  },
});

export const portRoutes = [search, areas];
