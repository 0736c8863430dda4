import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DependencyUnavailableError } from '../../dependency.js';

/**
 * Open event streams per agent, counted as leases that lapse unless renewed: each open stream holds
 * a lease renewed with its heartbeats, so a stream of a process that died stops counting within one
 * lease. With Redis the leases are shared by every process; without it one process holds them.
 */
export interface StreamSlots {
  /** A lease id when a slot was taken; null when the agent holds `max` live leases. */
  acquire(agentId: string, max: number, holdMs: number): Promise<string | null>;
  renew(agentId: string, lease: string, holdMs: number): Promise<void>;
  release(agentId: string, lease: string): Promise<void>;
}

const newLease = () => randomBytes(8).toString('hex');

/** `now` is real time (leases measure how long a connection lives, not the service clock). */
export function memoryStreamSlots(now: () => number = () => performance.now()): StreamSlots {
  const open = new Map<string, Map<string, number>>();
  return {
    async acquire(agentId, max, holdMs) {
      const t = now();
      const leases = open.get(agentId) ?? new Map<string, number>();
      for (const [lease, deadline] of leases) if (deadline <= t) leases.delete(lease);
      if (leases.size >= max) return null;
      const lease = newLease();
      leases.set(lease, t + holdMs);
      open.set(agentId, leases);
      return lease;
    },
    async renew(agentId, lease, holdMs) {
      const leases = open.get(agentId);
      if (leases?.has(lease)) leases.set(lease, now() + holdMs);
    },
    async release(agentId, lease) {
      const leases = open.get(agentId);
      leases?.delete(lease);
      if (leases?.size === 0) open.delete(agentId);
    },
  };
}

/** Sorted set per agent: lease ids scored by their deadlines on the Redis server's clock. */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1
`;

export function redisStreamSlots(redis: Redis, prefix: string, onError: (err: unknown) => void = () => {}): StreamSlots {
  const key = (agentId: string) => `${prefix}exchange-streams:${agentId}`;
  return {
    async acquire(agentId, max, holdMs) {
      const lease = newLease();
      try {
        return (await redis.eval(ACQUIRE_SCRIPT, 1, key(agentId), String(max), String(Math.ceil(holdMs)), lease)) === 1 ? lease : null;
      } catch (err) {
        throw new DependencyUnavailableError('redis', { cause: err });
      }
    },
    async renew(agentId, lease, holdMs) {
      await redis.eval(RENEW_SCRIPT, 1, key(agentId), String(Math.ceil(holdMs)), lease).catch(onError);
    },
    async release(agentId, lease) {
      await redis.zrem(key(agentId), lease).catch(onError);
    },
  };
}
