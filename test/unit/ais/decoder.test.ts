import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AisDecoder, type DecodedMessage } from '../../../src/ais/decoder.js';
import { turnDegreesPerMinute } from '../../../src/ais/messages.js';
import { messageToJson } from '../../../src/ais/render.js';
import { armor, fragment, nmeaChecksum, sentence, sixbitText, type BitField } from '../../../src/ais/encode.js';

/** Type 1 raw fields with defaults overridable by name, so tests can set exact raw values. */
function positionReport(overrides: Partial<Record<'type' | 'status' | 'turn' | 'speed' | 'lon' | 'lat' | 'course' | 'heading', number>> = {}): BitField[] {
  return [
    [overrides.type ?? 1, 6],
    [0, 2],
    [227006760, 30],
    [overrides.status ?? 0, 4],
    [overrides.turn ?? 0, 8],
    [overrides.speed ?? 123, 10],
    [1, 1],
    [overrides.lon ?? 78828, 28],
    [overrides.lat ?? 29685346, 27],
    [overrides.course ?? 2240, 12],
    [overrides.heading ?? 215, 9],
    [33, 6],
    [0, 2],
    [0, 3],
    [0, 1],
    [34017, 19],
  ];
}

function decodeOne(line: string, scaled = true): DecodedMessage {
  const messages = new AisDecoder({ scaled }).push(line);
  assert.equal(messages.length, 1, `expected one message from ${line}`);
  return messages[0]!;
}

test('type 1: real sentence, unscaled and scaled', () => {
  const line = '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A';
  const raw = decodeOne(line, false).fields;
  assert.deepEqual(
    { ...raw },
    {
      class: 'AIS',
      type: 1,
      repeat: 0,
      mmsi: 371798000,
      scaled: false,
      status: 0,
      status_text: 'Under way using engine',
      turn: -127,
      speed: 123,
      accuracy: true,
      lon: -74037230,
      lat: 29028980,
      course: 2240,
      heading: 215,
      second: 33,
      maneuver: 0,
      raim: false,
      radio: 34017,
    },
  );
  const scaled = decodeOne(line).fields;
  assert.equal(scaled.turn, 'fastleft');
  assert.equal(scaled.speed, 12.3);
  assert.equal(scaled.lon, -123.395383);
  assert.equal(scaled.lat, 48.381633);
  assert.equal(scaled.course, 224);
  assert.equal(scaled.heading, 215);
});

test('type 1: not-available values are null when scaled and raw when unscaled', () => {
  const line = sentence(positionReport({ turn: -128, speed: 1023, lon: 181 * 600000, lat: 91 * 600000, course: 3600, heading: 511 }));
  const scaled = decodeOne(line).fields;
  assert.equal(scaled.turn, null);
  assert.equal(scaled.speed, null);
  assert.equal(scaled.lon, null);
  assert.equal(scaled.lat, null);
  assert.equal(scaled.course, null);
  assert.equal(scaled.heading, null);
  const raw = decodeOne(line, false).fields;
  assert.deepEqual([raw.turn, raw.speed, raw.lon, raw.lat, raw.course, raw.heading], [-128, 1023, 108600000, 54600000, 3600, 511]);
});

test('rate of turn: (ROT_AIS / 4.733)² with sign, 0.1 deg/min; ±127 fast turns; 0 and extremes', () => {
  assert.equal(turnDegreesPerMinute(0), 0);
  assert.equal(turnDegreesPerMinute(-11), -5.4);
  assert.equal(turnDegreesPerMinute(12), 6.4);
  assert.equal(turnDegreesPerMinute(126), 708.7);
  assert.equal(turnDegreesPerMinute(127), 'fastright');
  assert.equal(turnDegreesPerMinute(-127), 'fastleft');
  assert.equal(turnDegreesPerMinute(-128), null);
  assert.equal(decodeOne(sentence(positionReport({ turn: -11 }))).fields.turn, -5.4);
  assert.equal(decodeOne(sentence(positionReport({ turn: -11 })), false).fields.turn, -11);
});

test('type 5 multipart with fill bits: text trimmed, draught and ETA scaled', () => {
  const decoder = new AisDecoder();
  assert.deepEqual(decoder.push('!AIVDM,2,1,1,A,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0*1C'), []);
  const [message] = decoder.push('!AIVDM,2,2,1,A,88888888880,2*25');
  const f = message!.fields;
  assert.deepEqual(
    [f.type, f.mmsi, f.imo, f.callsign, f.shipname, f.shiptype, f.shiptype_text, f.to_bow, f.to_stern, f.to_port, f.to_starboard],
    [5, 351759000, 9134270, '3FOF8', 'EVER DIADEM', 70, 'Cargo - all ships of this type', 225, 70, 1, 31],
  );
  assert.deepEqual([f.eta, f.eta_month, f.eta_day, f.eta_hour, f.eta_minute, f.draught, f.destination, f.dte], ['05-15T14:00Z', 5, 15, 14, 0, 12.2, 'NEW YORK', 0]);
  assert.equal(message!.meta.sentences.length, 2);
  assert.equal(decoder.stats().fragments_assembled, 2);
});

function type5(month: number, day: number, hour: number, minute: number, draught: number, name: string): string {
  const fields = [
    [5, 6],
    [0, 2],
    [244710865, 30],
    [1, 2],
    [0, 30],
    ...sixbitText('', 7),
    ...sixbitText(name, 20),
    [69, 8],
    [44, 9],
    [10, 9],
    [2, 6],
    [2, 6],
    [15, 4],
    [month, 4],
    [day, 5],
    [hour, 5],
    [minute, 6],
    [draught, 8],
    ...sixbitText('ROTTERDAM  ', 20),
    [1, 1],
    [0, 1],
  ] as const;
  return sentence(fields);
}

test('type 5: ETA parts and draught not available; trailing @ and spaces trimmed', () => {
  const f = decodeOne(type5(0, 0, 24, 60, 0, 'PRINSES  @@')).fields;
  assert.deepEqual([f.eta, f.eta_month, f.eta_day, f.eta_hour, f.eta_minute, f.draught], ['00-00T24:60Z', null, null, null, null, null]);
  assert.equal(f.shipname, 'PRINSES');
  assert.equal(f.destination, 'ROTTERDAM');
  assert.equal(f.epfd_text, 'INVALID EPFD');
  const raw = decodeOne(type5(0, 0, 24, 60, 0, 'X'), false).fields;
  assert.deepEqual([raw.eta_month, raw.eta_day, raw.eta_hour, raw.eta_minute, raw.draught], [0, 0, 24, 60, 0]);
});

test('type 27: 1/10 minute positions and its own not-available values', () => {
  const f = decodeOne('!AIVDM,1,1,,A,K3KLehP0rPTJ10Qr,0*2A').fields;
  assert.deepEqual([f.type, f.mmsi, f.lon, f.lat, f.speed, f.course, f.gnss, f.status_text], [27, 230108610, 24.9633, 60.1633, 1, 30, true, 'Under way using engine']);
  const na = sentence([
    [27, 6],
    [0, 2],
    [1, 30],
    [0, 1],
    [0, 1],
    [15, 4],
    [181 * 600, 18],
    [91 * 600, 17],
    [63, 6],
    [511, 9],
    [0, 1],
    [0, 1],
  ]);
  const scaled = decodeOne(na).fields;
  assert.deepEqual([scaled.lon, scaled.lat, scaled.speed, scaled.course], [null, null, null, null]);
  const raw = decodeOne(na, false).fields;
  assert.deepEqual([raw.lon, raw.lat, raw.speed, raw.course], [108600, 54600, 63, 511]);
});

test('types 4, 9, 18: decoded fields and not-available positions', () => {
  const base = decodeOne('!AIVDM,1,1,,A,403Ovl@000Htt<tSF0l4Q@100`Pq,0*28').fields;
  assert.deepEqual([base.type, base.mmsi, base.timestamp, base.lon, base.lat, base.epfd_text, base.radio], [4, 3669713, '0000-00-00T24:60:60Z', null, null, 'GPS', 165945]);
  const sar = decodeOne('!AIVDM,1,1,,B,9muc;QvN2`TG6BE76wm;U7u>K>?b,0*64').fields;
  assert.deepEqual(
    [sar.type, sar.repeat, sar.mmsi, sar.alt, sar.speed, sar.course, sar.lon, sar.lat, sar.regional, sar.radio],
    [9, 3, 400214919, 3704, 168, 296.4, 60.969937, -99.423647, 211, 844778],
  );
  const classB = decodeOne('!AIVDM,1,1,,B,B5MiOp0006g4up6:EV403wr5oP06,0*38').fields;
  assert.deepEqual(
    [classB.type, classB.mmsi, classB.speed, classB.course, classB.heading, classB.lon, classB.lat, classB.cs, classB.msg22, classB.radio],
    [18, 366764000, 0, 0, null, -70.711067, 43.072162, true, true, 917510],
  );
});

test('type 24 part B takes the shipname of a preceding part A from the same MMSI, once', () => {
  const partA = sentence([[24, 6], [0, 2], [211158770, 30], [0, 2], ...sixbitText('SUOKKI', 20), [0, 8]]);
  const partBFields = [[24, 6], [0, 2], [211158770, 30], [1, 2], [36, 8], ...sixbitText('AMC', 3), [1, 4], [7, 20], ...sixbitText('DF3898', 7), [6, 9], [7, 9], [2, 6], [5, 6], [0, 6]] as const;
  const partB = sentence(partBFields);
  const decoder = new AisDecoder();
  decoder.push(partA);
  const first = decoder.push(partB)[0]!.fields;
  assert.deepEqual(
    [first.shipname, first.shiptype_text, first.vendorid, first.model, first.serial, first.callsign, first.to_bow, first.to_starboard],
    ['SUOKKI', 'Sailing', 'AMC', 1, 7, 'DF3898', 6, 5],
  );
  assert.equal(decoder.push(partB)[0]!.fields.shipname, undefined);
  const partThree = sentence([
    [24, 6],
    [0, 2],
    [211158770, 30],
    [3, 2],
    [0, 40],
  ]);
  const unknown = decoder.push(partThree)[0]!;
  assert.equal(unknown.flag, 'unknown_part');
  assert.equal(unknown.fields.partno, 3);
  assert.equal(decoder.stats().flagged.unknown_part, 1);
});

test('other and invalid types keep type, repeat, mmsi and the raw payload', () => {
  const { payload, fillBits } = armor([
    [28, 6],
    [1, 2],
    [123456789, 30],
    [0, 130],
  ]);
  const message = decodeOne(fragment(payload, fillBits, 1, 1, ''));
  assert.equal(message.flag, 'invalid_type');
  assert.deepEqual({ ...message.fields }, { class: 'AIS', type: 28, repeat: 1, mmsi: 123456789, scaled: true, payload, fill_bits: fillBits });
  const binary = decodeOne('!AIVDM,1,1,,B,803Ovrh0EP:024`@02PN04da=3V<>N0000,4*39').fields;
  assert.deepEqual(
    [binary.type, binary.dac, binary.fid, binary.data, binary.payload, binary.fill_bits],
    [8, 1, 22, '144:0280084a1000281e004b2934398c39e00000', '803Ovrh0EP:024`@02PN04da=3V<>N0000', 4],
  );
});

test('wrong length: a 156-bit type 1 is kept header-only and counted', () => {
  const decoder = new AisDecoder();
  const { payload } = armor(positionReport());
  const line = fragment(payload.slice(0, 26), 0, 1, 1, '');
  const [message] = decoder.push(line);
  assert.equal(message!.flag, 'wrong_length');
  assert.equal(message!.fields.mmsi, 227006760);
  assert.equal(message!.fields.lat, undefined);
  assert.equal(decoder.stats().flagged.wrong_length, 1);
});

test('fill bits are excluded from the bit length and from text', () => {
  const text = sentence([[14, 6], [0, 2], [351809000, 30], [0, 2], ...sixbitText('RCVD YR TEST MSG', 16)]);
  assert.ok(text.endsWith(',2*' + text.slice(-2)), 'this payload needs 2 fill bits');
  assert.equal(decodeOne(text).fields.text, 'RCVD YR TEST MSG');
});

test('tag block: c: seconds or milliseconds, s: source, checksum validated', () => {
  const body = 'c:1418169601,s:rORBCOMM008';
  const decoder = new AisDecoder();
  const [withSeconds] = decoder.push(`\\${body}*${nmeaChecksum(body)}\\!AIVDM,1,1,,B,13F?Vv700<DJuLEtvep\`iToV0<00,0*78`, 5);
  assert.equal(withSeconds!.meta.receivedAtMs, 1418169601000);
  assert.equal(withSeconds!.meta.source, 'rORBCOMM008');
  const millisBody = 'c:1418169601234';
  const [withMillis] = decoder.push(`\\${millisBody}*${nmeaChecksum(millisBody)}\\!AIVDM,1,1,,B,13F?Vv700<DJuLEtvep\`iToV0<00,0*78`);
  assert.equal(withMillis!.meta.receivedAtMs, 1418169601234);
  const [badTag] = decoder.push(`\\${body}*00\\!AIVDM,1,1,,B,13F?Vv700<DJuLEtvep\`iToV0<00,0*78`, 7);
  assert.equal(badTag!.meta.receivedAtMs, 7, 'a bad tag block is ignored, the sentence kept');
  assert.equal(badTag!.meta.source, null);
  assert.equal(decoder.stats().bad_tagblock_checksum, 1);
});

test('tag block groups: fragments linked by g: even when only the first carries s:', () => {
  const decoder = new AisDecoder();
  const first = decoder.push('\\g:1-2-27300,n:636994,s:b003669710,c:1428621738*5F\\!SAVDM,2,1,2,B,55Mw@A7J1adAL@?;7WPl58F0U<h4pB222222220t1PN5553fN4g?`4iSp5Rc,0*26');
  assert.deepEqual(first, []);
  const [message] = decoder.push('\\g:2-2-27300,n:636995*15\\!SAVDM,2,2,2,B,iP`88888880,2*5E');
  assert.equal(message!.fields.type, 5);
  assert.equal(message!.meta.talker, 'SA');
  assert.equal(message!.meta.source, 'b003669710');
  assert.equal(message!.meta.receivedAtMs, 1428621738000);
});

test('$PGHP: counted as a known non-AIS line; its time stamps the next sentence only', () => {
  const decoder = new AisDecoder();
  assert.deepEqual(decoder.push('$PGHP,1,2008,5,9,0,0,0,10,338,2,,1,09*17'), []);
  const [stamped] = decoder.push('!AIVDM,1,1,,B,15NBj>PP1gG>1PVKTDTUJOv00<0M,0*09', 99);
  assert.equal(stamped!.meta.receivedAtMs, Date.UTC(2008, 4, 9, 0, 0, 0, 10));
  const [next] = decoder.push('!AIVDM,1,1,,B,15NBj>PP1gG>1PVKTDTUJOv00<0M,0*09', 99);
  assert.equal(next!.meta.receivedAtMs, 99);
  const stats = decoder.stats();
  assert.equal(stats.pghp, 1);
  assert.equal(stats.other_sentences, 1);
});

test('USCG trailer: last field is the epoch, r field the station', () => {
  const [message] = new AisDecoder().push('!AIVDM,1,1,,A,15B4FT5000JRP>PE6E68Nbkl0PS5,0*70,s23,d-97,T12.3,x1234,r003669945,1218112839', 1);
  assert.equal(message!.meta.receivedAtMs, 1218112839000);
  assert.equal(message!.meta.source, '003669945');
});

test('AIVDO is own ship; any two-letter talker is accepted and recorded', () => {
  const body = sentence(positionReport(), { formatter: 'AIVDO' });
  const own = decodeOne(body);
  assert.equal(own.meta.ownShip, true);
  assert.equal(own.meta.talker, 'AI');
  assert.match(messageToJson(own), /"own_ship":true/);
  const other = decodeOne(sentence(positionReport(), { formatter: 'BSVDM', channel: 'B' }));
  assert.deepEqual([other.meta.talker, other.meta.channel, other.meta.ownShip], ['BS', 'B', false]);
});

test('checksum and framing errors are counted by reason, never thrown', () => {
  const decoder = new AisDecoder();
  const good = '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A';
  for (const line of [good.replace('*4A', '*4B'), 'IamNotAnAisMessage1111', '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0', '', '# comment', '$GPGGA,1*7F'.replace('7F', nmeaChecksum('GPGGA,1'))]) {
    assert.deepEqual(decoder.push(line), []);
  }
  const stats = decoder.stats();
  assert.equal(stats.errors.bad_checksum, 1);
  assert.equal(stats.errors.junk_line, 1);
  assert.equal(stats.errors.malformed_sentence, 1);
  assert.equal(stats.ignored_lines, 2);
  assert.equal(stats.other_sentences, 1);
  assert.equal(stats.lines, 6);
});

function type5Fragments(sequenceId: string, mmsi: number, channel = 'A'): [string, string] {
  const { payload, fillBits } = armor([
    [5, 6],
    [0, 2],
    [mmsi, 30],
    [0, 2],
    [0, 30],
    ...sixbitText('CALL', 7),
    ...sixbitText('NAME ' + mmsi, 20),
    [70, 8],
    [0, 36],
    [0, 4],
    [0, 19],
    [0, 6],
    [0, 8],
    ...sixbitText('DEST', 20),
    [0, 2],
  ]);
  return [fragment(payload.slice(0, 60), 0, 2, 1, sequenceId, { channel }), fragment(payload.slice(60), fillBits, 2, 2, sequenceId, { channel })];
}

test('multipart: interleaved groups and fragment 2 before fragment 1', () => {
  const decoder = new AisDecoder();
  const [a1, a2] = type5Fragments('1', 111111111);
  const [b1, b2] = type5Fragments('2', 222222222);
  const [c1, c2] = type5Fragments('1', 333333333, 'B');
  const out: number[] = [];
  for (const line of [a1, b1, c2, a2, c1, b2]) for (const m of decoder.push(line)) out.push(m.fields.mmsi);
  assert.deepEqual(out, [111111111, 333333333, 222222222]);
  const stats = decoder.stats();
  assert.equal(stats.fragments_assembled, 6);
  assert.equal(stats.fragments_pending, 0);
  assert.equal(stats.errors.orphan_fragment, 0);
});

test('multipart: bounded window evicts the oldest group; duplicates and restarts counted', () => {
  const decoder = new AisDecoder({ maxPendingGroups: 2 });
  const groups = ['1', '2', '3'].map((id, i) => type5Fragments(id, 100000000 + i));
  decoder.push(groups[0]![0]);
  decoder.push(groups[1]![0]);
  decoder.push(groups[2]![0]); // evicts group 1
  assert.deepEqual(decoder.push(groups[0]![1]), [], 'fragment 2 of the evicted group waits alone');
  let stats = decoder.stats();
  assert.equal(stats.errors.orphan_fragment, 2, 'group 1 fragment 1, then group 2 fragment 1 evicted by the lone fragment 2');
  assert.equal(stats.fragments_pending, 2);
  assert.equal(decoder.push(groups[2]![1]).length, 1);
  decoder.push(groups[2]![0]);
  decoder.push(groups[2]![0]); // a second first fragment restarts the group
  stats = decoder.stats();
  assert.equal(stats.errors.orphan_fragment, 3);
  const [late1] = type5Fragments('7', 7);
  const lateDup = late1.replace(',2,1,', ',2,2,').replace(/\*[0-9A-F]{2}$/, '');
  const dupLine = lateDup + '*' + nmeaChecksum(lateDup.slice(1));
  decoder.push(dupLine);
  decoder.push(dupLine);
  stats = decoder.stats();
  assert.equal(stats.errors.duplicate_fragment, 1);
  decoder.flush();
  stats = decoder.stats();
  assert.equal(stats.fragments_pending, 0);
  assert.equal(stats.sentences, stats.fragments_assembled + stats.fragments_pending + stats.errors.orphan_fragment + stats.errors.duplicate_fragment);
});

test('JSON rendering is valid JSON and carries metadata', () => {
  const [message] = new AisDecoder().push('\\c:1418169601,s:st"1*' + nmeaChecksum('c:1418169601,s:st"1') + '\\!AIVDM,1,1,,B,13F?Vv700<DJuLEtvep`iToV0<00,0*78');
  const parsed = JSON.parse(messageToJson(message!, { sentences: true })) as Record<string, unknown>;
  assert.equal(parsed.source, 'st"1');
  assert.equal(parsed.received_ms, 1418169601000);
  assert.equal(parsed.channel, 'B');
  assert.equal(parsed.talker, 'AI');
  assert.equal((parsed.sentences as string[]).length, 1);
});
