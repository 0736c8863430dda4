import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DependencyUnavailableError } from '../../dependency.js';

/**
 * Counts open long polls per agent key as leases that expire on their own: each open poll holds
 * one lease with a deadline (the poll's timeout plus a margin), and an expired lease no longer
 * counts, whether or not it was released. A poll refused for want of a slot changes nothing, so
 * retrying never extends the leases that keep it out. With Redis the leases are shared by every
 * process (a crashed process's leases lapse at their deadline); without it, one process holds them.
 */
export interface PollSlots {
  /** A lease id when a slot was taken; null when the agent already holds `max` unexpired leases. */
  acquire(agentId: string, max: number, holdMs: number): Promise<string | null>;
  /** Ends a lease early (the poll returned); never fails: an unreleased lease lapses at its deadline. */
  release(agentId: string, lease: string): Promise<void>;
}

const newLease = () => randomBytes(8).toString('hex');

/** One process's leases; `now` is the process clock (leases are real time, not the service clock). */
export function memoryPollSlots(now: () => number = () => performance.now()): PollSlots {
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
    async release(agentId, lease) {
      const leases = open.get(agentId);
      if (!leases) return;
      leases.delete(lease);
      if (leases.size === 0) open.delete(agentId);
    },
  };
}

/**
 * A sorted set per agent: members are lease ids, scores their deadlines on the Redis server's clock
 * (one clock for every process). Acquire prunes lapsed leases, refuses when `max` remain (touching
 * nothing), else adds one and keeps the key alive until the last deadline.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local deadline = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], deadline, ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], math.max(deadline, tonumber(last[2])))
return 1
`;

/** Redis unreachable: long polls are refused with 503 (they need Redis to be woken across processes). */
export function redisPollSlots(redis: Redis, prefix: string, onReleaseError: (err: unknown) => void = () => {}): PollSlots {
  const key = (agentId: string) => `${prefix}polls:${agentId}`;
  return {
    async acquire(agentId, max, holdMs) {
      const lease = newLease();
      let taken: unknown;
      try {
        taken = await redis.eval(ACQUIRE_SCRIPT, 1, key(agentId), String(max), String(Math.ceil(holdMs)), lease);
      } catch (err) {
        throw new DependencyUnavailableError('redis', { cause: err });
      }
      return taken === 1 ? lease : null;
    },
    async release(agentId, lease) {
      await redis.zrem(key(agentId), lease).catch(onReleaseError);
    },
  };
}
