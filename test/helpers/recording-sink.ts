import type { DecodedMessage } from '../../src/ais/index.js';
import type { AisSink, ObservationMeta, PositionReport, StaticReport } from '../../src/fleet/types.js';

/** An AisSink that keeps everything it is given, for pipeline tests that need no store. */
export class RecordingSink implements AisSink {
  readonly messages: { message: DecodedMessage; meta: ObservationMeta }[] = [];
  readonly positions: PositionReport[] = [];
  readonly statics: StaticReport[] = [];
  flushes = 0;
  /** Records accepted before each flush. */
  readonly flushedAt: number[] = [];

  acceptMessage(message: DecodedMessage, meta: ObservationMeta): void {
    this.messages.push({ message, meta });
  }
  acceptPosition(report: PositionReport): void {
    this.positions.push(report);
  }
  acceptStatic(report: StaticReport): void {
    this.statics.push(report);
  }
  async flush(): Promise<void> {
    this.flushes++;
    this.flushedAt.push(this.messages.length + this.positions.length + this.statics.length);
  }
}
