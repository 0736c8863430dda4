import { isIPv4, isIPv6 } from 'node:net';

/** Keeps the network, drops the host: IPv4 to /24, IPv6 to /48. Audit rows never hold a full address. */
export function redactIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(v4)) return v4.split('.').slice(0, 3).join('.') + '.0/24';
  if (isIPv6(ip)) {
    const [head] = ip.split('::');
    const groups = (head ?? '').split(':').filter(Boolean);
    while (groups.length < 3) groups.push('0');
    return groups.slice(0, 3).join(':') + '::/48';
  }
  return 'unknown';
}
