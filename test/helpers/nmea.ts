/** NMEA helpers for feed tests. */

/** A position report (type 1, MMSI 371798000) with a valid checksum. */
export const TYPE1_LINE = '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A';
export const TYPE1_MMSI = 371798000;

/** A type 1 message (MMSI 367309370, from pyais) as its own second line. */
export const TYPE1_OTHER_LINE = '!AIVDM,1,1,,B,15NBj>PP1gG>1PVKTDTUJOv00<0M,0*09';

const xor = (text: string) => {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum ^= text.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, '0');
};

/** `line` behind an NMEA 4 tag block carrying `c:<epoch seconds>` with a correct checksum. */
export function tagged(line: string, epochMs: number): string {
  const body = `c:${Math.round(epochMs / 1000)}`;
  return `\\${body}*${xor(body)}\\${line}`;
}
export const TYPE1_OTHER_MMSI = 367309370;
