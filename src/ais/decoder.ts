/**
 * Stateful AIS decoder: NMEA framing, checksum, multipart reassembly and message decoding.
 * `push` never throws; everything rejected is counted in `stats()` by reason.
 */
import { DecodeContext, decodePayload, type AisFields, type FlagReason } from './messages.js';
import { hexValue, parsePghpTime, parseTagBlock, parseTrailer } from './nmea.js';

/** Lines rejected before becoming an AIS sentence (one count per line). */
export const LINE_ERROR_REASONS = ['junk_line', 'bad_checksum', 'malformed_sentence'] as const;
/** Valid sentences that never became part of a message (one count per fragment). */
export const FRAGMENT_ERROR_REASONS = ['orphan_fragment', 'duplicate_fragment'] as const;
/** Reassembled payloads that produced no message (one count per payload). */
export const PAYLOAD_ERROR_REASONS = ['empty_payload', 'bad_payload_char', 'truncated_payload'] as const;
/** Messages emitted with header and raw payload only (one count per message). */
export const FLAG_REASONS = ['invalid_type', 'wrong_length', 'unknown_part'] as const;

export type LineErrorReason = (typeof LINE_ERROR_REASONS)[number];
export type FragmentErrorReason = (typeof FRAGMENT_ERROR_REASONS)[number];
export type PayloadErrorReason = (typeof PAYLOAD_ERROR_REASONS)[number];
export type ErrorReason = LineErrorReason | FragmentErrorReason | PayloadErrorReason;

/**
 * Counters. They always add up:
 *   lines     = ignored_lines + other_sentences + sentences + Σ line errors
 *   sentences = fragments_assembled + fragments_pending + Σ fragment errors
 *   payloads  = messages + Σ payload errors
 *   messages  ≥ Σ flagged
 */
export interface DecoderStats {
  lines: number;
  /** Blank lines and `#` comments. */
  ignored_lines: number;
  /** Checksum-valid NMEA sentences that are not AIVDM/AIVDO (GPS fixes, `$PGHP`, …). */
  other_sentences: number;
  /** `$PGHP` sentences among other_sentences. */
  pghp: number;
  /**
   * Tag blocks with a bad or missing checksum. The sentence after it is still decoded (it has
   * its own checksum), without the tag block's time, source and group.
   */
  bad_tagblock_checksum: number;
  /** Checksum-valid AIVDM/AIVDO sentences. */
  sentences: number;
  own_ship_sentences: number;
  fragments_assembled: number;
  fragments_pending: number;
  /** Complete payloads (single sentences and reassembled groups). */
  payloads: number;
  messages: number;
  errors: Record<ErrorReason, number>;
  flagged: Record<FlagReason, number>;
  /** Messages by AIS type 0–63. */
  by_type: Record<string, number>;
}

export interface AisMessageMeta {
  /** Epoch ms from the tag block `c:`, else the USCG trailer epoch, else a preceding `$PGHP`, else `push`'s argument. */
  receivedAtMs: number | null;
  /** Tag block `s:`, else the USCG `r` station. */
  source: string | null;
  channel: string;
  talker: string;
  /** True for `!xxVDO`, the receiver's own vessel. */
  ownShip: boolean;
  /** The raw lines of all fragments in fragment order (empty when `keepSentences` is false). */
  sentences: string[];
}

export interface DecodedMessage {
  fields: AisFields;
  meta: AisMessageMeta;
  /** Set when only type/repeat/mmsi and the raw payload could be kept. */
  flag: FlagReason | null;
}

export interface AisDecoderOptions {
  /** Scaled units with null for "not available" (default) or raw integers. */
  scaled?: boolean;
  /** Incomplete multipart groups kept at once; the oldest is evicted beyond this. Default 64. */
  maxPendingGroups?: number;
  /** Keep the raw sentence lines in each message's meta. Default true. */
  keepSentences?: boolean;
}

interface FragmentMeta {
  receivedAtMs: number | null;
  source: string | null;
  channel: string;
  talker: string;
  ownShip: boolean;
}

interface PendingGroup {
  parts: (string | undefined)[];
  lines: (string | undefined)[];
  received: number;
  fillBits: number;
  meta: FragmentMeta;
  hasFirst: boolean;
}

const MAX_FRAGMENTS = 9;

function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  const counts = {} as Record<K, number>;
  for (const key of keys) counts[key] = 0;
  return counts;
}

export class AisDecoder {
  private readonly ctx: DecodeContext;
  private readonly maxPendingGroups: number;
  private readonly keepSentences: boolean;
  private readonly pending = new Map<string, PendingGroup>();
  private pendingFragments = 0;
  private pghpTimeMs: number | null = null;
  private collected: DecodedMessage[] | null = null;

  private lines = 0;
  private ignoredLines = 0;
  private otherSentences = 0;
  private pghp = 0;
  private badTagBlocks = 0;
  private sentences = 0;
  private ownShipSentences = 0;
  private fragmentsAssembled = 0;
  private payloads = 0;
  private messages = 0;
  private readonly errors = zeroCounts<ErrorReason>([...LINE_ERROR_REASONS, ...FRAGMENT_ERROR_REASONS, ...PAYLOAD_ERROR_REASONS]);
  private readonly flagged = zeroCounts<FlagReason>(FLAG_REASONS);
  private readonly byType = new Float64Array(64);

  /** With `onMessage`, `feed` delivers messages without allocating result arrays. */
  constructor(
    options: AisDecoderOptions = {},
    private readonly onMessage: ((message: DecodedMessage) => void) | null = null,
  ) {
    this.ctx = new DecodeContext(options.scaled ?? true);
    const maxGroups = options.maxPendingGroups ?? 64;
    this.maxPendingGroups = Number.isInteger(maxGroups) && maxGroups > 0 ? maxGroups : 64;
    this.keepSentences = options.keepSentences ?? true;
  }

  /** Decode one line; returns the messages it completed (usually zero or one). */
  push(line: string, receivedAtMs?: number): DecodedMessage[] {
    const out: DecodedMessage[] = [];
    const previous = this.collected;
    this.collected = out;
    try {
      this.feed(line, receivedAtMs);
    } finally {
      this.collected = previous;
    }
    return out;
  }

  /** Decode one line, delivering messages to the constructor's `onMessage` callback. */
  feed(line: string, receivedAtMs?: number): void {
    this.lines++;
    try {
      this.processLine(typeof line === 'string' ? line : String(line), receivedAtMs ?? null);
    } catch {
      // Unreachable by design; a defect here must not take down an ingestion pipeline.
      this.errors.junk_line++;
    }
  }

  /** End of input: every fragment still waiting for its group is counted as orphaned. */
  flush(): DecodedMessage[] {
    const orphans = this.pendingFragments;
    this.errors.orphan_fragment += orphans;
    this.pending.clear();
    this.pendingFragments = 0;
    return [];
  }

  stats(): DecoderStats {
    const byType: Record<string, number> = {};
    for (let type = 0; type < 64; type++) if (this.byType[type]! > 0) byType[String(type)] = this.byType[type]!;
    return {
      lines: this.lines,
      ignored_lines: this.ignoredLines,
      other_sentences: this.otherSentences,
      pghp: this.pghp,
      bad_tagblock_checksum: this.badTagBlocks,
      sentences: this.sentences,
      own_ship_sentences: this.ownShipSentences,
      fragments_assembled: this.fragmentsAssembled,
      fragments_pending: this.pendingFragments,
      payloads: this.payloads,
      messages: this.messages,
      errors: { ...this.errors },
      flagged: { ...this.flagged },
      by_type: byType,
    };
  }

  private processLine(line: string, receivedAtMs: number | null): void {
    let start = 0;
    let end = line.length;
    while (end > start && line.charCodeAt(end - 1) <= 32) end--;
    while (start < end && line.charCodeAt(start) <= 32) start++;
    if (start === end || line.charCodeAt(start) === 35 /* # */) {
      this.ignoredLines++;
      return;
    }

    let tagTimeMs: number | null = null;
    let tagSource: string | null = null;
    let tagGroupId: string | null = null;
    if (line.charCodeAt(start) === 92 /* \ */) {
      const close = line.indexOf('\\', start + 1);
      if (close < 0 || close >= end) {
        this.errors.junk_line++;
        return;
      }
      const tag = parseTagBlock(line, start + 1, close);
      if (tag === null) {
        this.badTagBlocks++;
      } else {
        tagTimeMs = tag.timeMs;
        tagSource = tag.source;
        tagGroupId = tag.groupId;
      }
      start = close + 1;
      if (start === end) {
        this.errors.junk_line++;
        return;
      }
    }

    const lead = line.charCodeAt(start);
    if (lead !== 33 /* ! */ && lead !== 36 /* $ */) {
      this.errors.junk_line++;
      return;
    }

    // One pass: checksum over the body and the positions of the first seven commas.
    let checksum = 0;
    let star = -1;
    let commas = 0;
    let c0 = -1,
      c1 = -1,
      c2 = -1,
      c3 = -1,
      c4 = -1,
      c5 = -1;
    for (let i = start + 1; i < end; i++) {
      const code = line.charCodeAt(i);
      if (code === 42 /* * */) {
        star = i;
        break;
      }
      checksum ^= code;
      if (code === 44 /* , */) {
        switch (commas) {
          case 0:
            c0 = i;
            break;
          case 1:
            c1 = i;
            break;
          case 2:
            c2 = i;
            break;
          case 3:
            c3 = i;
            break;
          case 4:
            c4 = i;
            break;
          case 5:
            c5 = i;
            break;
        }
        commas++;
      }
    }
    if (star < 0 || star + 3 > end) {
      this.errors.malformed_sentence++;
      return;
    }
    const high = hexValue(line.charCodeAt(star + 1));
    const low = hexValue(line.charCodeAt(star + 2));
    if (high < 0 || low < 0) {
      this.errors.malformed_sentence++;
      return;
    }
    if (high * 16 + low !== checksum) {
      this.errors.bad_checksum++;
      return;
    }

    // Address field: talker (2) + formatter (3) for AIVDM/AIVDO.
    const isVdmOrVdo =
      lead === 33 &&
      c0 === start + 6 &&
      line.charCodeAt(start + 3) === 86 /* V */ &&
      line.charCodeAt(start + 4) === 68 /* D */ &&
      (line.charCodeAt(start + 5) === 77 /* M */ || line.charCodeAt(start + 5) === 79); /* O */
    if (!isVdmOrVdo) {
      if (lead === 36 && line.startsWith('PGHP,', start + 1)) {
        this.pghp++;
        this.pghpTimeMs = parsePghpTime(line, start + 1, star);
      }
      this.otherSentences++;
      return;
    }
    if (commas !== 6) {
      this.errors.malformed_sentence++;
      return;
    }

    const fragCount = c1 === c0 + 2 ? line.charCodeAt(c0 + 1) - 48 : -1;
    const fragNum = c2 === c1 + 2 ? line.charCodeAt(c1 + 1) - 48 : -1;
    let fillBits = 0;
    if (star === c5 + 2) fillBits = line.charCodeAt(c5 + 1) - 48;
    else if (star !== c5 + 1) fillBits = -1;
    if (fragCount < 1 || fragCount > MAX_FRAGMENTS || fragNum < 1 || fragNum > fragCount || fillBits < 0 || fillBits > 5) {
      this.errors.malformed_sentence++;
      return;
    }

    let trailerTimeMs: number | null = null;
    let trailerStation: string | null = null;
    if (star + 3 < end) {
      const trailer = parseTrailer(line, star + 4, end);
      trailerTimeMs = trailer.timeMs;
      trailerStation = trailer.station;
    }

    const ownShip = line.charCodeAt(start + 5) === 79;
    this.sentences++;
    if (ownShip) this.ownShipSentences++;

    const timeMs = tagTimeMs ?? trailerTimeMs ?? this.pghpTimeMs ?? receivedAtMs;
    // A $PGHP stamps only the sentence that follows it.
    this.pghpTimeMs = null;
    const meta: FragmentMeta = {
      receivedAtMs: timeMs,
      source: tagSource ?? trailerStation,
      channel: line.slice(c3 + 1, c4),
      talker: line.slice(start + 1, start + 3),
      ownShip,
    };

    if (fragCount === 1) {
      this.fragmentsAssembled++;
      this.decodeAndEmit(line.slice(c4 + 1, c5), fillBits, meta, this.keepSentences ? [line] : []);
      return;
    }
    this.addFragment(line, line.slice(c2 + 1, c3), tagGroupId, fragCount, fragNum, line.slice(c4 + 1, c5), fillBits, meta);
  }

  private addFragment(line: string, sequenceId: string, tagGroupId: string | null, fragCount: number, fragNum: number, payload: string, fillBits: number, meta: FragmentMeta): void {
    // An NMEA 4 group id links fragments even when only the first one carries `s:`.
    const key =
      tagGroupId !== null ? '\u0001' + tagGroupId + '\u0000' + meta.channel + '\u0000' + fragCount : (meta.source ?? '') + '\u0000' + meta.channel + '\u0000' + sequenceId + '\u0000' + fragCount;
    let group = this.pending.get(key);
    if (group !== undefined && group.parts[fragNum - 1] !== undefined) {
      if (fragNum === 1) {
        // A new first fragment under the same key: the earlier group will never complete.
        this.dropGroup(key, group);
        group = undefined;
      } else {
        this.errors.duplicate_fragment++;
        return;
      }
    }
    if (group === undefined) {
      if (this.pending.size >= this.maxPendingGroups) {
        const oldestKey = this.pending.keys().next().value as string;
        this.dropGroup(oldestKey, this.pending.get(oldestKey)!);
      }
      group = {
        parts: new Array<string | undefined>(fragCount).fill(undefined),
        lines: new Array<string | undefined>(fragCount).fill(undefined),
        received: 0,
        fillBits: 0,
        meta,
        hasFirst: false,
      };
      this.pending.set(key, group);
    }
    group.parts[fragNum - 1] = payload;
    group.lines[fragNum - 1] = line;
    group.received++;
    this.pendingFragments++;
    if (fragNum === fragCount) group.fillBits = fillBits;
    if (fragNum === 1 && !group.hasFirst) {
      group.meta = meta;
      group.hasFirst = true;
    }
    if (group.received < fragCount) return;

    this.pending.delete(key);
    this.pendingFragments -= fragCount;
    this.fragmentsAssembled += fragCount;
    this.decodeAndEmit(group.parts.join(''), group.fillBits, group.meta, this.keepSentences ? (group.lines as string[]) : []);
  }

  private dropGroup(key: string, group: PendingGroup): void {
    this.pending.delete(key);
    this.pendingFragments -= group.received;
    this.errors.orphan_fragment += group.received;
  }

  private decodeAndEmit(payload: string, fillBits: number, meta: FragmentMeta, sentences: string[]): void {
    this.payloads++;
    const ctx = this.ctx;
    const fields = decodePayload(payload, fillBits, ctx);
    if (fields === null) {
      this.errors[ctx.error ?? 'truncated_payload']++;
      return;
    }
    this.messages++;
    this.byType[fields.type]!++;
    const flag = ctx.flag;
    if (flag !== null) this.flagged[flag]++;
    const message: DecodedMessage = {
      fields,
      meta: {
        receivedAtMs: meta.receivedAtMs,
        source: meta.source,
        channel: meta.channel,
        talker: meta.talker,
        ownShip: meta.ownShip,
        sentences,
      },
      flag,
    };
    if (this.collected !== null) this.collected.push(message);
    else if (this.onMessage !== null) this.onMessage(message);
  }
}
