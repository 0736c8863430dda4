import type { Redis } from 'ioredis';

/**
 * Counts open long polls per agent key. With Redis the count is shared by every process (a
 * crashed process's slots expire); without it, one process holds them in memory.
 */
export interface PollSlots {
  /** True when a slot was taken; false when the agent already holds `max`. */
  acquire(agentId: string, max: number, holdMs: number): Promise<boolean>;
  release(agentId: string): Promise<void>;
}

export function memoryPollSlots(): PollSlots {
  const open = new Map<string, number>();
  return {
    async acquire(agentId, max) {
      const n = open.get(agentId) ?? 0;
      if (n >= max) return false;
      open.set(agentId, n + 1);
      return true;
    },
    async release(agentId) {
      const n = (open.get(agentId) ?? 1) - 1;
      if (n <= 0) open.delete(agentId);
      else open.set(agentId, n);
    },
  };
}

export function redisPollSlots(redis: Redis, prefix: string): PollSlots {
  const key = (agentId: string) => `${prefix}polls:${agentId}`;
  return {
    async acquire(agentId, max, holdMs) {
      const [[, count]] = (await redis.multi().incr(key(agentId)).pexpire(key(agentId), holdMs).exec()) as [[unknown, number], unknown];
      if (count > max) {
        await redis.decr(key(agentId));
        return false;
      }
      return true;
    },
    async release(agentId) {
      await redis.decr(key(agentId));
    },
  };
}
