/** Public API of the AIS decoder. */
export {
  AisDecoder,
  FLAG_REASONS,
  FRAGMENT_ERROR_REASONS,
  LINE_ERROR_REASONS,
  PAYLOAD_ERROR_REASONS,
  type AisDecoderOptions,
  type AisMessageMeta,
  type DecodedMessage,
  type DecoderStats,
  type ErrorReason,
} from './decoder.js';
export { runDecode, type RunDecodeOptions } from './decode-cli.js';
export { messageToJson, type RenderOptions } from './render.js';
export { turnDegreesPerMinute, type AisFields, type FieldValue, type FlagReason, type PositionReportFields, type StaticVoyageFields } from './messages.js';
export { flagForMid, flagForMmsi, midOfMmsi } from './mid.js';
export { isValidImo } from './imo.js';
