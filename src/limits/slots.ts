import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withinDeadline } from '../platform/deadline.js';
import { DependencyUnavailableError } from '../platform/dependency.js';

/**
 * Per-agent slots for long-lived requests (long polls, event streams), counted as leases that lapse
 * on their own: each open request holds one lease with a deadline, and a lapsed lease no longer
 * counts, whether or not it was released, so a process that dies holding leases does not lock the
 * agent out. A request refused for want of a slot changes nothing, so retrying never extends the
 * leases that keep it out. A request that lives longer than one lease renews it (streams do so with
 * their heartbeats). With Redis the leases are shared by every process; without it, one process holds them.
 */
export interface LeaseSlots {
  /** A lease id when a slot was taken; null when the agent already holds `max` unexpired leases. */
  acquire(agentId: string, max: number, holdMs: number): Promise<string | null>;
  /** Moves a live lease's deadline to `holdMs` from now; a lapsed or released lease stays gone. Never fails. */
  renew(agentId: string, lease: string, holdMs: number): Promise<void>;
  /** Ends a lease early; never fails: an unreleased lease lapses at its deadline. */
  release(agentId: string, lease: string): Promise<void>;
}

const newLease = () => randomBytes(8).toString('hex');

/** One process's leases; `now` is the clock the deadlines are measured on (milliseconds). */
export function memorySlots(now: () => number = () => performance.now()): LeaseSlots {
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
      const t = now();
      const deadline = leases?.get(lease);
      if (leases && deadline !== undefined && deadline > t) leases.set(lease, t + holdMs);
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
 * nothing), else adds one; the key lives until the last deadline.
 */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;
const KEEP_UNTIL_LAST_DEADLINE = `
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[1], math.max(deadline, tonumber(last[2]))) end
`;
const ACQUIRE_SCRIPT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
local deadline = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], deadline, ARGV[3])
${KEEP_UNTIL_LAST_DEADLINE}
return 1
`;
/** Renews only a lease still live: a released one is never added again, a lapsed one is pruned first. */
const RENEW_SCRIPT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
local deadline = now + tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], deadline, ARGV[2])
${KEEP_UNTIL_LAST_DEADLINE}
return 1
`;

/**
 * Leases under `keyPrefix` + agent id. Redis unreachable: acquiring fails with DependencyUnavailableError
 * (the request is refused with 503); renewing and releasing report to `onError` and let the lease lapse.
 */
export function redisSlots(redis: Redis, keyPrefix: string, answerWithinMs: number, onError: (err: unknown) => void = () => {}): LeaseSlots {
  const key = (agentId: string) => `${keyPrefix}${agentId}`;
  const answer = <T>(call: Promise<T>) => withinDeadline(call, answerWithinMs, 'Redis');
  return {
    async acquire(agentId, max, holdMs) {
      const lease = newLease();
      let taken: unknown;
      try {
        taken = await answer(redis.eval(ACQUIRE_SCRIPT, 1, key(agentId), String(max), String(Math.ceil(holdMs)), lease));
      } catch (err) {
        throw new DependencyUnavailableError('redis', { cause: err });
      }
      return taken === 1 ? lease : null;
    },
    async renew(agentId, lease, holdMs) {
      await answer(redis.eval(RENEW_SCRIPT, 1, key(agentId), String(Math.ceil(holdMs)), lease)).catch(onError);
    },
    async release(agentId, lease) {
      await answer(redis.zrem(key(agentId), lease)).catch(onError);
    },
  };
}
