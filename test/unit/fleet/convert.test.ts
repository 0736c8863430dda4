import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisDecoder, type DecodedMessage } from '../../../src/ais/index.js';
import { isValidImo } from '../../../src/ais/imo.js';
import { flagForMid, flagForMmsi, midOfMmsi } from '../../../src/ais/mid.js';
import { convertMessage, etaToIso } from '../../../src/fleet/convert.js';
import { shipCategory } from '../../../src/fleet/ship-types.js';
import type { ObservationMeta } from '../../../src/fleet/types.js';

const AT = Date.UTC(2026, 10, 21, 12, 0, 0);
const META: ObservationMeta = { observedAt: AT, receivedAt: AT, source: 'file:test.nmea', simulated: false };

function decode(...lines: string[]): DecodedMessage[] {
  const decoder = new AisDecoder();
  return lines.flatMap((line) => decoder.push(line));
}

test('type 1 becomes a position with knots, degrees and navigation status', () => {
  const [message] = decode('!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A');
  const c = convertMessage(message!, META);
  assert.equal(c.kind, 'position');
  if (c.kind !== 'position') return;
  assert.deepEqual(c.position, { ...META, mmsi: 371798000, lat: 48.381633, lon: -123.395383, sog: 12.3, cog: 224, heading: 215, navStatus: 0, msgType: 1 });
  assert.equal(c.identity, null);
});

test('type 5 becomes identity: IMO, callsign, name, type, dimensions as sums, draught, destination, ETA in the observation year', () => {
  const [message] = decode('!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C', '!AIVDM,2,2,1,A,88888888880,2*25');
  const c = convertMessage(message!, { ...META, observedAt: Date.UTC(2026, 3, 1) });
  assert.equal(c.kind, 'static');
  if (c.kind !== 'static') return;
  assert.equal(c.identity.mmsi, 351759000);
  assert.equal(c.identity.imo, 9134270);
  assert.equal(c.identity.name, 'EVER DIADEM');
  assert.equal(c.identity.callsign, '3FOF8');
  assert.equal(c.identity.shipType, 70);
  assert.equal(c.identity.lengthM, 295);
  assert.equal(c.identity.beamM, 32);
  assert.equal(c.identity.draughtM, 12.2);
  assert.equal(c.identity.destination, 'NEW YORK');
  assert.equal(c.identity.eta, '2026-05-15T14:00:00Z');
});

test('type 24 part A gives the name; part B callsign, type and dimensions', () => {
  const [a, b] = decode('!AIVDM,1,1,,A,H42O55i18tMET00000000000000,2*6D', '!AIVDM,1,1,,A,H42O55lti4hhhilD3nink000?050,0*40');
  const ca = convertMessage(a!, META);
  const cb = convertMessage(b!, META);
  assert.ok(ca.kind === 'static' && cb.kind === 'static');
  if (ca.kind !== 'static' || cb.kind !== 'static') return;
  assert.equal(ca.identity.name, 'PROGUY');
  assert.equal(ca.identity.callsign, null);
  assert.equal(ca.identity.shipType, null);
  assert.equal(cb.identity.callsign, 'TC6163');
  assert.equal(cb.identity.shipType, 60);
  assert.equal(cb.identity.lengthM, 15);
  assert.equal(cb.identity.beamM, 5);
});

test('type 27 is a coarse position without heading; types 4, 9 and 21 are not vessels', () => {
  const [long] = decode('!AIVDM,1,1,,A,H42O55lti4hhhilD3nink000?050,0*40', '!AIVDM,1,1,,B,KC5E2b@U19PFdLbMuc5=ROv62<7m,0*16').slice(1);
  const c = convertMessage(long!, META);
  assert.equal(c.kind, 'position');
  if (c.kind === 'position') {
    assert.equal(c.position.msgType, 27);
    assert.equal(c.position.lat, 4.84);
    assert.equal(c.position.lon, 137.0233);
    assert.equal(c.position.heading, null);
    assert.equal(c.position.navStatus, 2);
  }
  for (const type of [4, 9, 11, 21]) {
    const fake: DecodedMessage = { fields: { class: 'AIS', type, repeat: 0, mmsi: 2579999, scaled: true, lat: 1, lon: 1 }, meta: long!.meta, flag: null };
    assert.equal(convertMessage(fake, META).kind, 'non_vessel', `type ${type}`);
  }
});

test('ETA: year of the observation, next year when it is more than 60 days past; invalid dates are null', () => {
  const dec20 = Date.UTC(2026, 11, 20);
  assert.equal(etaToIso(1, 5, 8, 30, dec20), '2027-01-05T08:30:00Z');
  assert.equal(etaToIso(12, 18, 8, 30, dec20), '2026-12-18T08:30:00Z', 'a recently passed ETA stays in this year');
  assert.equal(etaToIso(10, 21, 0, 0, dec20), '2026-10-21T00:00:00Z', '60 days past is still this year');
  assert.equal(etaToIso(10, 20, 0, 0, dec20), '2027-10-20T00:00:00Z', 'more than 60 days past rolls over');
  assert.equal(etaToIso(2, 30, 0, 0, dec20), null);
  assert.equal(etaToIso(null, 5, 0, 0, dec20), null);
  assert.equal(etaToIso(3, 1, null, null, dec20), '2027-03-01T00:00:00Z', 'hour/minute not available count as 00:00');
});

test('IMO check digit', () => {
  assert.equal(isValidImo(9074729), true);
  assert.equal(isValidImo(9811000), true);
  assert.equal(isValidImo(9134270), true);
  assert.equal(isValidImo(9074728), false);
  assert.equal(isValidImo(123456), false);
  assert.equal(isValidImo(12345678), false);
  assert.equal(isValidImo(0), false);
});

test('flag from the MID of every MMSI format', () => {
  assert.equal(flagForMmsi(563033300), 'SG');
  assert.equal(flagForMmsi(366999999), 'US');
  assert.equal(flagForMmsi(244123456), 'NL');
  assert.equal(flagForMmsi(232000001), 'GB');
  assert.equal(flagForMmsi(477123400), 'HK');
  assert.equal(flagForMmsi(636012345), 'LR');
  assert.equal(flagForMmsi(775000000), 'VE');
  assert.equal(flagForMmsi(992351234), 'GB', 'aid to navigation 99MIDxxxx');
  assert.equal(flagForMmsi(982570001), 'NO', 'craft of a parent ship 98MIDxxxx');
  assert.equal(flagForMmsi(111232001), 'GB', 'SAR aircraft 111MIDxxx');
  assert.equal(flagForMmsi(2579999), null, 'coast station');
  assert.equal(flagForMmsi(970123456), null, 'AIS-SART');
  assert.equal(flagForMmsi(217000000), null, 'unallocated MID');
  assert.equal(midOfMmsi(123), null);
  const allocated = Array.from({ length: 775 - 201 + 1 }, (_, i) => 201 + i).filter((mid) => flagForMid(mid) !== null);
  assert.ok(allocated.length > 280, `${allocated.length} allocated MIDs`);
  for (const mid of allocated) assert.match(flagForMid(mid)!, /^[A-Z]{2}$/);
});

test('ship type categories', () => {
  assert.equal(shipCategory(70), 'cargo');
  assert.equal(shipCategory(84), 'tanker');
  assert.equal(shipCategory(60), 'passenger');
  assert.equal(shipCategory(30), 'fishing');
  assert.equal(shipCategory(52), 'tug');
  assert.equal(shipCategory(31), 'tug');
  assert.equal(shipCategory(37), 'pleasure');
  assert.equal(shipCategory(40), 'high_speed');
  assert.equal(shipCategory(36), 'sailing');
  assert.equal(shipCategory(35), 'military');
  assert.equal(shipCategory(90), 'other');
  assert.equal(shipCategory(0), null);
  assert.equal(shipCategory(null), null);
});
