/**
 * AIS message decoding (ITU-R M.1371) from de-armored payload bits into gpsd-named fields.
 *
 * Two renderings share one decoder: unscaled keeps every raw integer exactly as transmitted
 * (like `gpsdecode -u -j`); scaled converts units (degrees, knots, metres) and represents a
 * "not available" value as `null`.
 */
import { PayloadBits } from './bits.js';
import { NAVIGATION_STATUS, STATION_TYPE, epfdText, navaidText, shipTypeText } from './legends.js';

export type FieldValue = string | number | boolean | null | readonly TidalWindow[];
type TidalWindow = Record<string, number>;

/** Fields common to every decoded message. Further fields depend on `type` (see docs/ais-conformance.md). */
export interface AisFields {
  class: 'AIS';
  type: number;
  repeat: number;
  mmsi: number;
  scaled: boolean;
  [field: string]: FieldValue;
}

/** Types 1, 2, 3: Class A position report. */
export interface PositionReportFields extends AisFields {
  status: number;
  status_text: string;
  /** Unscaled: ROT_AIS (−128 = n/a). Scaled: degrees/minute, "fastleft"/"fastright" for ±127, null = n/a. */
  turn: number | string | null;
  speed: number | null;
  accuracy: boolean;
  lon: number | null;
  lat: number | null;
  course: number | null;
  heading: number | null;
  second: number;
  maneuver: number;
  raim: boolean;
  radio: number;
}

/** Type 5: static and voyage related data. */
export interface StaticVoyageFields extends AisFields {
  imo: number;
  ais_version: number;
  callsign: string;
  shipname: string;
  shiptype: number;
  shiptype_text: string;
  to_bow: number;
  to_stern: number;
  to_port: number;
  to_starboard: number;
  epfd: number;
  epfd_text: string;
  eta: string;
  eta_month: number | null;
  eta_day: number | null;
  eta_hour: number | null;
  eta_minute: number | null;
  draught: number | null;
  destination: string;
  dte: number;
}

/** Why a message was emitted with only its header and raw payload. */
export type FlagReason = 'invalid_type' | 'wrong_length' | 'unknown_part';
/** Why a payload produced no message at all. */
export type PayloadErrorReason = 'empty_payload' | 'bad_payload_char' | 'truncated_payload';

const LON_NOT_AVAILABLE = 181 * 600000;
const LAT_NOT_AVAILABLE = 91 * 600000;
const LON_NOT_AVAILABLE_TENTH_MINUTE = 181 * 600;
const LAT_NOT_AVAILABLE_TENTH_MINUTE = 91 * 600;
const TYPE24_PART_A_SLOTS = 8;

/** Degrees rounded to 6 decimals (≈0.1 m) from 1/10000 minute. */
function degrees(raw: number, notAvailable: number): number | null {
  return raw === notAvailable ? null : Math.round(raw / 0.6) / 1e6;
}
/** Degrees rounded to 4 decimals from 1/10 minute (types 17, 22, 23, 27). */
function degreesTenthMinute(raw: number, notAvailable: number): number | null {
  return raw === notAvailable ? null : Math.round(raw / 0.06) / 1e4;
}
function tenths(raw: number, notAvailable: number): number | null {
  return raw === notAvailable ? null : raw / 10;
}
function orNull(raw: number, notAvailable: number): number | null {
  return raw === notAvailable ? null : raw;
}

/** Rate of turn in degrees/minute: ROT = (ROT_AIS / 4.733)², sign kept, 0.1 resolution. */
export function turnDegreesPerMinute(rotAis: number): number | string | null {
  if (rotAis === -128) return null;
  if (rotAis === 127) return 'fastright';
  if (rotAis === -127) return 'fastleft';
  const magnitude = Math.round((rotAis / 4.733) ** 2 * 10) / 10;
  return rotAis < 0 ? -magnitude : magnitude;
}

function pad2(value: number): string {
  return value < 10 ? '0' + value : '' + value;
}

/** Mutable per-decoder context: the type 24 part A cache and the outcome of the last decode. */
export class DecodeContext {
  flag: FlagReason | null = null;
  error: PayloadErrorReason | null = null;
  readonly bits = new PayloadBits();
  private readonly partAMmsi = new Array<number>(TYPE24_PART_A_SLOTS).fill(0);
  private readonly partAName = new Array<string>(TYPE24_PART_A_SLOTS).fill('');
  private partAIndex = 0;

  constructor(readonly scaled: boolean) {}

  rememberPartA(mmsi: number, shipname: string): void {
    this.partAMmsi[this.partAIndex] = mmsi;
    this.partAName[this.partAIndex] = shipname;
    this.partAIndex = (this.partAIndex + 1) % TYPE24_PART_A_SLOTS;
  }

  /** Shipname of a recent part A from the same MMSI, consumed so a repeated part B does not match twice. */
  takePartA(mmsi: number): string | null {
    for (let i = 0; i < TYPE24_PART_A_SLOTS; i++) {
      if (this.partAMmsi[i] === mmsi) {
        this.partAMmsi[i] = 0;
        return this.partAName[i]!;
      }
    }
    return null;
  }
}

/**
 * Decode one complete armored payload. Returns null when it cannot be decoded at all
 * (`ctx.error` says why); otherwise the fields, with `ctx.flag` set when only the header and the
 * raw payload could be kept.
 */
export function decodePayload(payload: string, fillBits: number, ctx: DecodeContext): AisFields | null {
  ctx.flag = null;
  ctx.error = null;
  const bits = ctx.bits;
  if (payload.length === 0) {
    ctx.error = 'empty_payload';
    return null;
  }
  if (!bits.load(payload, 0, payload.length, fillBits)) {
    ctx.error = 'bad_payload_char';
    return null;
  }
  if (bits.bitLength < 38) {
    ctx.error = 'truncated_payload';
    return null;
  }
  const type = bits.u(0, 6);
  const repeat = bits.u(6, 2);
  const mmsi = bits.u(8, 30);
  const scaled = ctx.scaled;
  const n = bits.bitLength;
  let fields: AisFields | null;
  switch (type) {
    case 1:
    case 2:
    case 3:
      fields = n < 163 ? null : positionReportA(bits, type, repeat, mmsi, scaled);
      break;
    case 4:
    case 11:
      fields = n < 168 ? null : baseStation(bits, type, repeat, mmsi, scaled);
      break;
    case 5:
      fields = n < 420 ? null : staticVoyage(bits, repeat, mmsi, scaled);
      break;
    case 6:
      fields = n < 88 || n > 1008 ? null : addressedBinary(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 7:
    case 13:
      fields = n < 72 || n > 168 ? null : acknowledge(bits, type, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 8:
      fields = n < 56 || n > 1008 ? null : broadcastBinary(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 9:
      fields = n < 168 ? null : sarAircraft(bits, repeat, mmsi, scaled);
      break;
    case 10:
      fields = n < 72 ? null : withRaw({ class: 'AIS', type, repeat, mmsi, scaled, dest_mmsi: bits.u(40, 30) }, payload, fillBits);
      break;
    case 12:
      fields =
        n < 72 || n > 1008
          ? null
          : withRaw(
              {
                class: 'AIS',
                type,
                repeat,
                mmsi,
                scaled,
                seqno: bits.u(38, 2),
                dest_mmsi: bits.u(40, 30),
                retransmit: bits.bool(70),
                text: bits.text(72, ((n - 72) / 6) | 0),
              },
              payload,
              fillBits,
            );
      break;
    case 14:
      fields = n < 40 || n > 1008 ? null : withRaw({ class: 'AIS', type, repeat, mmsi, scaled, text: bits.text(40, ((n - 40) / 6) | 0) }, payload, fillBits);
      break;
    case 15:
      fields = n < 88 || n > 168 ? null : interrogation(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 16:
      fields = n < 96 || n > 168 ? null : assignedMode(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 17:
      fields = n < 80 || n > 816 ? null : gnssBroadcast(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 18:
      fields = n < 168 ? null : classBPosition(bits, repeat, mmsi, scaled);
      break;
    case 19:
      fields = n < 312 ? null : classBExtended(bits, repeat, mmsi, scaled);
      break;
    case 20:
      fields = n < 72 || n > 186 ? null : dataLinkManagement(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 21:
      fields = n < 272 || n > 368 ? null : aidToNavigation(bits, repeat, mmsi, scaled);
      break;
    case 22:
      fields = n < 168 ? null : channelManagement(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 23:
      fields = n < 160 ? null : groupAssignment(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 24:
      fields = staticDataReport(bits, repeat, mmsi, ctx, payload, fillBits);
      if (ctx.flag !== null) return fields;
      break;
    case 25:
      fields = singleSlotBinary(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 26:
      fields = multiSlotBinary(bits, repeat, mmsi, scaled, payload, fillBits);
      break;
    case 27:
      fields = n !== 96 && n !== 168 ? null : longRange(bits, repeat, mmsi, scaled);
      break;
    default:
      ctx.flag = 'invalid_type';
      return rawOnly(type, repeat, mmsi, scaled, payload, fillBits);
  }
  if (fields === null) {
    ctx.flag = 'wrong_length';
    return rawOnly(type, repeat, mmsi, scaled, payload, fillBits);
  }
  return fields;
}

function rawOnly(type: number, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  return { class: 'AIS', type, repeat, mmsi, scaled, payload, fill_bits: fillBits };
}

function withRaw(fields: AisFields, payload: string, fillBits: number): AisFields {
  fields.payload = payload;
  fields.fill_bits = fillBits;
  return fields;
}

function positionReportA(bits: PayloadBits, type: number, repeat: number, mmsi: number, scaled: boolean): PositionReportFields {
  const status = bits.u(38, 4);
  const turn = bits.s(42, 8);
  const speed = bits.u(50, 10);
  const lon = bits.s(61, 28);
  const lat = bits.s(89, 27);
  const course = bits.u(116, 12);
  const heading = bits.u(128, 9);
  const n = bits.bitLength;
  return {
    class: 'AIS',
    type,
    repeat,
    mmsi,
    scaled,
    status,
    status_text: NAVIGATION_STATUS[status]!,
    turn: scaled ? turnDegreesPerMinute(turn) : turn,
    speed: scaled ? tenths(speed, 1023) : speed,
    accuracy: bits.bool(60),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    course: scaled ? tenths(course, 3600) : course,
    heading: scaled ? orNull(heading, 511) : heading,
    second: bits.u(137, 6),
    maneuver: bits.u(143, 2),
    raim: bits.bool(148),
    radio: n >= 168 ? bits.u(149, 19) : bits.u(149, n - 149),
  };
}

function baseStation(bits: PayloadBits, type: number, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const lon = bits.s(79, 28);
  const lat = bits.s(107, 27);
  const epfd = bits.u(134, 4);
  return {
    class: 'AIS',
    type,
    repeat,
    mmsi,
    scaled,
    timestamp:
      String(bits.u(38, 14)).padStart(4, '0') + '-' + pad2(bits.u(52, 4)) + '-' + pad2(bits.u(56, 5)) + 'T' + pad2(bits.u(61, 5)) + ':' + pad2(bits.u(66, 6)) + ':' + pad2(bits.u(72, 6)) + 'Z',
    accuracy: bits.bool(78),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    epfd,
    epfd_text: epfdText(epfd),
    raim: bits.bool(148),
    radio: bits.u(149, 19),
  };
}

function staticVoyage(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): StaticVoyageFields {
  const shiptype = bits.u(232, 8);
  const epfd = bits.u(270, 4);
  const month = bits.u(274, 4);
  const day = bits.u(278, 5);
  const hour = bits.u(283, 5);
  const minute = bits.u(288, 6);
  const draught = bits.u(294, 8);
  return {
    class: 'AIS',
    type: 5,
    repeat,
    mmsi,
    scaled,
    imo: bits.u(40, 30),
    ais_version: bits.u(38, 2),
    callsign: bits.text(70, 7),
    shipname: bits.text(112, 20),
    shiptype,
    shiptype_text: shipTypeText(shiptype),
    to_bow: bits.u(240, 9),
    to_stern: bits.u(249, 9),
    to_port: bits.u(258, 6),
    to_starboard: bits.u(264, 6),
    epfd,
    epfd_text: epfdText(epfd),
    eta: pad2(month) + '-' + pad2(day) + 'T' + pad2(hour) + ':' + pad2(minute) + 'Z',
    eta_month: scaled ? orNull(month, 0) : month,
    eta_day: scaled ? orNull(day, 0) : day,
    eta_hour: scaled ? orNull(hour, 24) : hour,
    eta_minute: scaled ? orNull(minute, 60) : minute,
    draught: scaled ? tenths(draught, 0) : draught,
    destination: bits.text(302, 20),
    dte: bits.bitLength >= 423 ? bits.u(422, 1) : 0,
  };
}

function addressedBinary(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  return withRaw(
    {
      class: 'AIS',
      type: 6,
      repeat,
      mmsi,
      scaled,
      seqno: bits.u(38, 2),
      dest_mmsi: bits.u(40, 30),
      retransmit: bits.bool(70),
      dac: bits.u(72, 10),
      fid: bits.u(82, 6),
      data: bits.hexData(88),
    },
    payload,
    fillBits,
  );
}

function acknowledge(bits: PayloadBits, type: number, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const n = bits.bitLength;
  return withRaw(
    {
      class: 'AIS',
      type,
      repeat,
      mmsi,
      scaled,
      mmsi1: n > 40 ? bits.u(40, 30) : 0,
      mmsi2: n > 72 ? bits.u(72, 30) : 0,
      mmsi3: n > 104 ? bits.u(104, 30) : 0,
      mmsi4: n > 136 ? bits.u(136, 30) : 0,
    },
    payload,
    fillBits,
  );
}

function broadcastBinary(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  return withRaw({ class: 'AIS', type: 8, repeat, mmsi, scaled, dac: bits.u(40, 10), fid: bits.u(50, 6), data: bits.hexData(56) }, payload, fillBits);
}

function sarAircraft(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const alt = bits.u(38, 12);
  const speed = bits.u(50, 10);
  const lon = bits.s(61, 28);
  const lat = bits.s(89, 27);
  const course = bits.u(116, 12);
  return {
    class: 'AIS',
    type: 9,
    repeat,
    mmsi,
    scaled,
    alt: scaled ? orNull(alt, 4095) : alt,
    speed: scaled ? orNull(speed, 1023) : speed,
    accuracy: bits.bool(60),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    course: scaled ? tenths(course, 3600) : course,
    second: bits.u(128, 6),
    regional: bits.u(134, 8),
    dte: bits.u(142, 1),
    assigned: bits.bool(146),
    raim: bits.bool(147),
    radio: bits.u(148, 20),
  };
}

function interrogation(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const n = bits.bitLength;
  return withRaw(
    {
      class: 'AIS',
      type: 15,
      repeat,
      mmsi,
      scaled,
      mmsi1: bits.u(40, 30),
      type1_1: bits.u(70, 6),
      offset1_1: bits.u(76, 12),
      type1_2: n > 90 ? bits.u(90, 6) : 0,
      offset1_2: n > 90 ? bits.u(96, 12) : 0,
      mmsi2: n > 110 ? bits.u(110, 30) : 0,
      type2_1: n > 110 ? bits.u(140, 6) : 0,
      offset2_1: n > 110 ? bits.u(146, 12) : 0,
    },
    payload,
    fillBits,
  );
}

function assignedMode(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const second = bits.bitLength >= 144;
  return withRaw(
    {
      class: 'AIS',
      type: 16,
      repeat,
      mmsi,
      scaled,
      mmsi1: bits.u(40, 30),
      offset1: bits.u(70, 12),
      increment1: bits.u(82, 10),
      mmsi2: second ? bits.u(92, 30) : 0,
      offset2: second ? bits.u(122, 12) : 0,
      increment2: second ? bits.u(134, 10) : 0,
    },
    payload,
    fillBits,
  );
}

function gnssBroadcast(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const lon = bits.s(40, 18);
  const lat = bits.s(58, 17);
  return withRaw(
    {
      class: 'AIS',
      type: 17,
      repeat,
      mmsi,
      scaled,
      lon: scaled ? degreesTenthMinute(lon, LON_NOT_AVAILABLE_TENTH_MINUTE) : lon,
      lat: scaled ? degreesTenthMinute(lat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : lat,
      data: bits.hexData(80),
    },
    payload,
    fillBits,
  );
}

function classBPosition(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const speed = bits.u(46, 10);
  const lon = bits.s(57, 28);
  const lat = bits.s(85, 27);
  const course = bits.u(112, 12);
  const heading = bits.u(124, 9);
  return {
    class: 'AIS',
    type: 18,
    repeat,
    mmsi,
    scaled,
    reserved: bits.u(38, 8),
    speed: scaled ? tenths(speed, 1023) : speed,
    accuracy: bits.bool(56),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    course: scaled ? tenths(course, 3600) : course,
    heading: scaled ? orNull(heading, 511) : heading,
    second: bits.u(133, 6),
    regional: bits.u(139, 2),
    cs: bits.bool(141),
    display: bits.bool(142),
    dsc: bits.bool(143),
    band: bits.bool(144),
    msg22: bits.bool(145),
    assigned: bits.bool(146),
    raim: bits.bool(147),
    radio: bits.u(148, 20),
  };
}

function classBExtended(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const speed = bits.u(46, 10);
  const lon = bits.s(57, 28);
  const lat = bits.s(85, 27);
  const course = bits.u(112, 12);
  const heading = bits.u(124, 9);
  const shiptype = bits.u(263, 8);
  const epfd = bits.u(301, 4);
  return {
    class: 'AIS',
    type: 19,
    repeat,
    mmsi,
    scaled,
    reserved: bits.u(38, 8),
    speed: scaled ? tenths(speed, 1023) : speed,
    accuracy: bits.bool(56),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    course: scaled ? tenths(course, 3600) : course,
    heading: scaled ? orNull(heading, 511) : heading,
    second: bits.u(133, 6),
    regional: bits.u(139, 4),
    shipname: bits.text(143, 20),
    shiptype,
    shiptype_text: shipTypeText(shiptype),
    to_bow: bits.u(271, 9),
    to_stern: bits.u(280, 9),
    to_port: bits.u(289, 6),
    to_starboard: bits.u(295, 6),
    epfd,
    epfd_text: epfdText(epfd),
    raim: bits.bool(305),
    dte: bits.u(306, 1),
    assigned: bits.bool(307),
  };
}

function dataLinkManagement(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const fields: AisFields = { class: 'AIS', type: 20, repeat, mmsi, scaled };
  for (let block = 0; block < 4; block++) {
    const base = 40 + block * 30;
    const suffix = block + 1;
    fields['offset' + suffix] = bits.u(base, 12);
    fields['number' + suffix] = bits.u(base + 12, 4);
    fields['timeout' + suffix] = bits.u(base + 16, 3);
    fields['increment' + suffix] = bits.u(base + 19, 11);
  }
  return withRaw(fields, payload, fillBits);
}

function aidToNavigation(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const aidType = bits.u(38, 5);
  const lon = bits.s(164, 28);
  const lat = bits.s(192, 27);
  const epfd = bits.u(249, 4);
  // The name extension only continues a name that fills all 20 characters of the first field.
  let name = bits.rawText(43, 20);
  const atSign = name.indexOf('@');
  if (atSign >= 0) name = name.slice(0, atSign);
  else if (bits.bitLength > 272) name += bits.text(272, ((bits.bitLength - 272) / 6) | 0);
  name = name.replace(/[ @]+$/, '');
  return {
    class: 'AIS',
    type: 21,
    repeat,
    mmsi,
    scaled,
    aid_type: aidType,
    aid_type_text: navaidText(aidType),
    name,
    accuracy: bits.bool(163),
    lon: scaled ? degrees(lon, LON_NOT_AVAILABLE) : lon,
    lat: scaled ? degrees(lat, LAT_NOT_AVAILABLE) : lat,
    to_bow: bits.u(219, 9),
    to_stern: bits.u(228, 9),
    to_port: bits.u(237, 6),
    to_starboard: bits.u(243, 6),
    epfd,
    epfd_text: epfdText(epfd),
    second: bits.u(253, 6),
    regional: bits.u(260, 8),
    off_position: bits.bool(259),
    raim: bits.bool(268),
    virtual_aid: bits.bool(269),
    assigned: bits.bool(270),
  };
}

function channelManagement(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const addressed = bits.bool(139);
  const fields: AisFields = {
    class: 'AIS',
    type: 22,
    repeat,
    mmsi,
    scaled,
    channel_a: bits.u(40, 12),
    channel_b: bits.u(52, 12),
    txrx: bits.u(64, 4),
    power: bits.bool(68),
  };
  if (addressed) {
    fields.dest1 = bits.u(69, 30);
    fields.dest2 = bits.u(104, 30);
  } else {
    const neLon = bits.s(69, 18);
    const neLat = bits.s(87, 17);
    const swLon = bits.s(104, 18);
    const swLat = bits.s(122, 17);
    fields.ne_lon = scaled ? degreesTenthMinute(neLon, LON_NOT_AVAILABLE_TENTH_MINUTE) : neLon;
    fields.ne_lat = scaled ? degreesTenthMinute(neLat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : neLat;
    fields.sw_lon = scaled ? degreesTenthMinute(swLon, LON_NOT_AVAILABLE_TENTH_MINUTE) : swLon;
    fields.sw_lat = scaled ? degreesTenthMinute(swLat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : swLat;
  }
  fields.addressed = addressed;
  fields.band_a = bits.bool(140);
  fields.band_b = bits.bool(141);
  fields.zonesize = bits.u(142, 3);
  return withRaw(fields, payload, fillBits);
}

function groupAssignment(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields {
  const neLon = bits.s(40, 18);
  const neLat = bits.s(58, 17);
  const swLon = bits.s(75, 18);
  const swLat = bits.s(93, 17);
  const stationType = bits.u(110, 4);
  const shiptype = bits.u(114, 8);
  return withRaw(
    {
      class: 'AIS',
      type: 23,
      repeat,
      mmsi,
      scaled,
      ne_lon: scaled ? degreesTenthMinute(neLon, LON_NOT_AVAILABLE_TENTH_MINUTE) : neLon,
      ne_lat: scaled ? degreesTenthMinute(neLat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : neLat,
      sw_lon: scaled ? degreesTenthMinute(swLon, LON_NOT_AVAILABLE_TENTH_MINUTE) : swLon,
      sw_lat: scaled ? degreesTenthMinute(swLat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : swLat,
      stationtype: stationType,
      stationtype_text: STATION_TYPE[stationType]!,
      shiptype,
      shiptype_text: shipTypeText(shiptype),
      txrx: bits.u(144, 2),
      interval: bits.u(146, 4),
      quiet: bits.u(150, 4),
    },
    payload,
    fillBits,
  );
}

function staticDataReport(bits: PayloadBits, repeat: number, mmsi: number, ctx: DecodeContext, payload: string, fillBits: number): AisFields | null {
  const n = bits.bitLength;
  const partno = bits.u(38, 2);
  const scaled = ctx.scaled;
  if (partno === 0) {
    if (n < 160 || n > 168) return null;
    const shipname = bits.text(40, 20);
    ctx.rememberPartA(mmsi, shipname);
    return { class: 'AIS', type: 24, repeat, mmsi, scaled, partno: 0, part: 'A', shipname };
  }
  if (partno === 1) {
    if (n < 168) return null;
    const shiptype = bits.u(40, 8);
    const fields: AisFields = { class: 'AIS', type: 24, repeat, mmsi, scaled, partno: 1, part: 'B' };
    const partAName = ctx.takePartA(mmsi);
    if (partAName !== null) fields.shipname = partAName;
    fields.shiptype = shiptype;
    fields.shiptype_text = shipTypeText(shiptype);
    fields.vendorid = bits.text(48, 3);
    fields.model = bits.u(66, 4);
    fields.serial = bits.u(70, 20);
    fields.callsign = bits.text(90, 7);
    if (Math.floor(mmsi / 10000000) === 98) {
      fields.mothership_mmsi = bits.u(132, 30);
    } else {
      fields.to_bow = bits.u(132, 9);
      fields.to_stern = bits.u(141, 9);
      fields.to_port = bits.u(150, 6);
      fields.to_starboard = bits.u(156, 6);
    }
    return fields;
  }
  ctx.flag = 'unknown_part';
  return { class: 'AIS', type: 24, repeat, mmsi, scaled, partno, payload, fill_bits: fillBits };
}

function singleSlotBinary(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields | null {
  const n = bits.bitLength;
  if (n < 40 || n > 168) return null;
  const addressed = bits.bool(38);
  const structured = bits.bool(39);
  let start = 40;
  const destMmsi = addressed ? bits.u(40, 30) : 0;
  if (addressed) start += 30;
  const appId = structured ? bits.u(start, 16) : 0;
  if (structured) start += 16;
  if (n < start) return null;
  return withRaw(
    {
      class: 'AIS',
      type: 25,
      repeat,
      mmsi,
      scaled,
      addressed,
      structured,
      dest_mmsi: destMmsi,
      app_id: appId,
      data: bits.hexData(start),
    },
    payload,
    fillBits,
  );
}

function multiSlotBinary(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean, payload: string, fillBits: number): AisFields | null {
  const n = bits.bitLength;
  if (n < 60 || n > 1004) return null;
  const addressed = bits.bool(38);
  const structured = bits.bool(39);
  let start = 40;
  const destMmsi = addressed ? bits.u(40, 30) : 0;
  if (addressed) start += 30;
  const appId = structured ? bits.u(start, 16) : 0;
  if (structured) start += 16;
  if (n < start + 20) return null;
  return withRaw(
    {
      class: 'AIS',
      type: 26,
      repeat,
      mmsi,
      scaled,
      addressed,
      structured,
      dest_mmsi: destMmsi,
      app_id: appId,
      data: bits.hexData(start, n - 20),
      radio: bits.u(n - 20, 20),
    },
    payload,
    fillBits,
  );
}

function longRange(bits: PayloadBits, repeat: number, mmsi: number, scaled: boolean): AisFields {
  const status = bits.u(40, 4);
  const lon = bits.s(44, 18);
  const lat = bits.s(62, 17);
  const speed = bits.u(79, 6);
  const course = bits.u(85, 9);
  return {
    class: 'AIS',
    type: 27,
    repeat,
    mmsi,
    scaled,
    status,
    status_text: NAVIGATION_STATUS[status]!,
    accuracy: bits.bool(38),
    lon: scaled ? degreesTenthMinute(lon, LON_NOT_AVAILABLE_TENTH_MINUTE) : lon,
    lat: scaled ? degreesTenthMinute(lat, LAT_NOT_AVAILABLE_TENTH_MINUTE) : lat,
    speed: scaled ? orNull(speed, 63) : speed,
    course: scaled ? orNull(course, 511) : course,
    raim: bits.bool(39),
    gnss: bits.bool(94),
  };
}
