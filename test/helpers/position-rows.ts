import type { PositionWrite } from '../../src/fleet/fleet-repo.js';

/** A usable position row off Galveston at 10 kn heading east, as the fleet writes it; `extra` overrides any field. */
export function positionRow(vslId: string, observedAt: number, extra: Partial<PositionWrite> = {}): PositionWrite {
  return {
    mmsi: 0,
    vsl_id: vslId,
    observed_at: observedAt,
    received_at: observedAt,
    lat: 29.3,
    lon: -94.8,
    sog: 10,
    cog: 90,
    heading: 90,
    nav_status: 0,
    msg_type: 1,
    source: 'test',
    simulated: 0,
    usable: 1,
    quality_flags: '[]',
    ...extra,
  };
}
