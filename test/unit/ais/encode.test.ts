import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AisDecoder, type DecodedMessage } from '../../../src/ais/decoder.js';
import { encodeClassBPosition, encodePositionReport, encodeStaticPartA, encodeStaticPartB, encodeStaticVoyage, nmeaChecksum, PayloadWriter, tagBlock, toSentences } from '../../../src/ais/encode.js';

function decodeAll(lines: string[]): { messages: DecodedMessage[]; decoder: AisDecoder } {
  const decoder = new AisDecoder();
  const messages = lines.flatMap((line) => decoder.push(line));
  return { messages, decoder };
}

function decodeOnly(lines: string[]): DecodedMessage {
  const { messages, decoder } = decodeAll(lines);
  assert.equal(messages.length, 1, `one message from ${lines.join(' | ')}`);
  const stats = decoder.stats();
  assert.equal(
    Object.values(stats.errors).reduce((a, b) => a + b, 0),
    0,
    JSON.stringify(stats.errors),
  );
  return messages[0]!;
}

const T = Date.UTC(2026, 10, 21, 6, 30, 15);

test('type 1/2/3: every field round-trips through the decoder, tag block gives time and source', () => {
  for (const type of [1, 2, 3] as const) {
    const report = {
      type,
      mmsi: 636012345,
      status: 5,
      turn: -5.4,
      speed: 12.3,
      accuracy: true,
      lon: -123.395383,
      lat: 48.381633,
      course: 224,
      heading: 215,
      second: 33,
      maneuver: 1,
      raim: true,
      radio: 34017,
    };
    const lines = toSentences(encodePositionReport(report), { timeMs: T, source: 'demo-simulator', channel: 'B' });
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^\\c:1795242615,s:demo-simulator\*[0-9A-F]{2}\\!AIVDM,1,1,,B,/);
    const { fields, meta } = decodeOnly(lines);
    // every field as written, plus what the decoder adds (status_text is checked by the decoder's own tests)
    assert.deepEqual({ ...fields, status_text: undefined }, { class: 'AIS', repeat: 0, scaled: true, status_text: undefined, ...report });
    assert.equal(meta.receivedAtMs, T);
    assert.equal(meta.source, 'demo-simulator');
    assert.equal(meta.channel, 'B');
  }
});

test('type 1: null writes "not available", southern and western hemispheres keep their sign', () => {
  const na = decodeOnly(toSentences(encodePositionReport({ mmsi: 229000001, status: 15, turn: null, speed: null, lon: null, lat: null, course: null, heading: null })));
  assert.deepEqual([na.fields.turn, na.fields.speed, na.fields.lon, na.fields.lat, na.fields.course, na.fields.heading, na.fields.second], [null, null, null, null, null, null, 60]);
  const south = decodeOnly(toSentences(encodePositionReport({ mmsi: 503000001, status: 0, speed: 0, lon: -58.37, lat: -34.58, course: 359.9, heading: 0 })));
  assert.deepEqual([south.fields.lon, south.fields.lat, south.fields.course, south.fields.heading], [-58.37, -34.58, 359.9, 0]);
  const fast = decodeOnly(toSentences(encodePositionReport({ mmsi: 503000001, status: 0, turn: 'fastleft', speed: 150, lon: 0, lat: 0, course: 0, heading: 0 })));
  assert.deepEqual([fast.fields.turn, fast.fields.speed], ['fastleft', 102.2]);
});

test('type 5: two fragments with one tag block group each, text trimmed, ETA and draught', () => {
  const lines = toSentences(
    encodeStaticVoyage({
      mmsi: 538001234,
      imo: 9811000,
      callsign: 'V7AB3',
      shipname: 'OCEAN PRIDE',
      shiptype: 80,
      toBow: 150,
      toStern: 33,
      toPort: 16,
      toStarboard: 16,
      epfd: 1,
      eta: { month: 11, day: 22, hour: 6, minute: 0 },
      draught: 11.2,
      destination: 'SGSIN',
    }),
    { timeMs: T, source: 'demo-simulator', sequenceId: 7 },
  );
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /^\\c:1795242615,s:demo-simulator,g:1-2-7\*[0-9A-F]{2}\\!AIVDM,2,1,7,A,/);
  assert.match(lines[1]!, /^\\c:1795242615,s:demo-simulator,g:2-2-7\*[0-9A-F]{2}\\!AIVDM,2,2,7,A,.*,2\*[0-9A-F]{2}$/);
  const { fields, meta } = decodeOnly(lines);
  assert.deepEqual(
    [fields.imo, fields.callsign, fields.shipname, fields.shiptype, fields.to_bow, fields.to_stern, fields.to_port, fields.to_starboard, fields.eta, fields.draught, fields.destination, fields.epfd],
    [9811000, 'V7AB3', 'OCEAN PRIDE', 80, 150, 33, 16, 16, '11-22T06:00Z', 11.2, 'SGSIN', 1],
  );
  assert.equal(meta.receivedAtMs, T);
  const none = decodeOnly(
    toSentences(
      encodeStaticVoyage({
        mmsi: 538001234,
        imo: 0,
        callsign: '',
        shipname: 'A NAME LONGER THAN TWENTY CHARACTERS',
        shiptype: 70,
        toBow: 600,
        toStern: 0,
        toPort: 70,
        toStarboard: 0,
        eta: { month: null, day: null, hour: null, minute: null },
        draught: null,
        destination: 'lower case',
      }),
    ),
  );
  assert.deepEqual(
    [none.fields.shipname, none.fields.to_bow, none.fields.to_port, none.fields.eta_month, none.fields.eta_hour, none.fields.draught, none.fields.destination],
    ['A NAME LONGER THAN T', 511, 63, null, null, null, 'LOWER CASE'],
  );
});

test('type 18 and type 24 parts A and B round-trip; part B picks up the name from part A', () => {
  const position = decodeOnly(toSentences(encodeClassBPosition({ mmsi: 232004567, speed: 3.5, lon: 1.75, lat: 50.25, course: 181.5, heading: 180, second: 9, radio: 917510 })));
  assert.deepEqual(
    [
      position.fields.type,
      position.fields.mmsi,
      position.fields.speed,
      position.fields.lon,
      position.fields.lat,
      position.fields.course,
      position.fields.heading,
      position.fields.second,
      position.fields.cs,
      position.fields.radio,
    ],
    [18, 232004567, 3.5, 1.75, 50.25, 181.5, 180, 9, true, 917510],
  );
  const { messages } = decodeAll([
    ...toSentences(encodeStaticPartA({ mmsi: 232004567, shipname: 'SEA HUNTER' })),
    ...toSentences(encodeStaticPartB({ mmsi: 232004567, shiptype: 30, vendorid: 'SIM', model: 2, serial: 12345, callsign: 'MABC1', toBow: 20, toStern: 6, toPort: 4, toStarboard: 3 })),
  ]);
  assert.equal(messages.length, 2);
  assert.deepEqual([messages[0]!.fields.part, messages[0]!.fields.shipname], ['A', 'SEA HUNTER']);
  const b = messages[1]!.fields;
  assert.deepEqual(
    [b.part, b.shipname, b.shiptype, b.vendorid, b.model, b.serial, b.callsign, b.to_bow, b.to_stern, b.to_port, b.to_starboard],
    ['B', 'SEA HUNTER', 30, 'SIM', 2, 12345, 'MABC1', 20, 6, 4, 3],
  );
});

test('tag block and sentence checksums are what the NMEA rules say', () => {
  assert.equal(tagBlock(1418169601000, 'rORBCOMM008'), '\\c:1418169601,s:rORBCOMM008*' + nmeaChecksum('c:1418169601,s:rORBCOMM008') + '\\');
  assert.equal(nmeaChecksum('AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0'), '4A');
  const writer = new PayloadWriter()
    .uint(1, 6)
    .uint(-1, 8)
    .uint(2 ** 32 - 1, 32);
  assert.equal(writer.bitLength, 46);
  assert.deepEqual(writer.armor(), { payload: '1wwwwwwt', fillBits: 2 });
});

test('property: any valid class A position and static report decodes to the values encoded (to the field resolution)', () => {
  const decoder = new AisDecoder();
  fc.assert(
    fc.property(
      fc.record({
        mmsi: fc.integer({ min: 201_000_000, max: 775_999_999 }),
        status: fc.integer({ min: 0, max: 15 }),
        speed: fc.integer({ min: 0, max: 1022 }).map((v) => v / 10),
        lon: fc.integer({ min: -180 * 600000, max: 180 * 600000 - 1 }).map((v) => v / 600000),
        lat: fc.integer({ min: -90 * 600000, max: 90 * 600000 }).map((v) => v / 600000),
        course: fc.integer({ min: 0, max: 3599 }).map((v) => v / 10),
        heading: fc.integer({ min: 0, max: 359 }),
        second: fc.integer({ min: 0, max: 60 }),
        name: fc
          .stringMatching(/^[A-Z0-9 ]{1,20}$/)
          .map((s) => s.trim())
          .filter((s) => s.length > 0 && !s.includes('  ')),
        imo: fc.integer({ min: 1_000_000, max: 9_999_999 }),
        timeS: fc.integer({ min: 1_500_000_000, max: 2_000_000_000 }),
      }),
      (r) => {
        const positionLines = toSentences(encodePositionReport({ ...r, turn: 0 }), { timeMs: r.timeS * 1000, source: 'demo-simulator' });
        const [p] = positionLines.flatMap((l) => decoder.push(l));
        assert.ok(p);
        assert.equal(p.meta.receivedAtMs, r.timeS * 1000);
        assert.deepEqual([p.fields.mmsi, p.fields.status, p.fields.speed, p.fields.course, p.fields.heading, p.fields.second], [r.mmsi, r.status, r.speed, r.course, r.heading, r.second]);
        assert.ok(Math.abs((p.fields.lon as number) - r.lon) <= 1e-6 && Math.abs((p.fields.lat as number) - r.lat) <= 1e-6);
        const staticLines = toSentences(
          encodeStaticVoyage({
            mmsi: r.mmsi,
            imo: r.imo,
            callsign: 'ABC',
            shipname: r.name,
            shiptype: 70,
            toBow: 1,
            toStern: 1,
            toPort: 1,
            toStarboard: 1,
            eta: { month: 1, day: 2, hour: 3, minute: 4 },
            draught: 5,
            destination: r.name,
          }),
          { timeMs: r.timeS * 1000, source: 'demo-simulator', sequenceId: r.second % 10 },
        );
        const [s] = staticLines.flatMap((l) => decoder.push(l));
        assert.ok(s);
        assert.deepEqual([s.fields.imo, s.fields.shipname, s.fields.destination], [r.imo, r.name, r.name]);
      },
    ),
    { numRuns: 300 },
  );
  assert.equal(
    Object.values(decoder.stats().errors).reduce((a, b) => a + b, 0),
    0,
  );
});
