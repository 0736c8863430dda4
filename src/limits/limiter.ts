import type { Redis } from 'ioredis';
import type { LimitPolicy, LimitWindow } from './policies.js';

export interface LimitDecision {
  allowed: boolean;
  /** The window that binds: the exhausted one when refused, the tightest remaining otherwise. */
  window: LimitWindow;
  remaining: number;
  /** Milliseconds until the binding window resets. */
  resetInMs: number;
  /** Counted by this process alone because the shared counter (Redis) was unreachable. */
  local?: boolean;
}

/** Fixed windows aligned to the epoch; a refused call is not counted. */
export interface LimiterBackend {
  /** Counts one call in every window unless one of them is full; returns the counts before the call. */
  consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]): Promise<{ allowed: boolean; counts: number[]; local?: boolean }>;
  /** Current counts of the keys, without counting anything. */
  peek(keys: string[]): Promise<number[]>;
  close(): Promise<void>;
}

export class Limiter {
  constructor(private readonly backend: LimiterBackend) {}

  private windowsAt(policy: LimitPolicy, subject: string, now: number) {
    const starts = policy.windows.map((w) => Math.floor(now / w.windowMs) * w.windowMs);
    const keys = policy.windows.map((w, i) => `${policy.name}:${subject}:${w.name}:${starts[i]}`);
    const ends = policy.windows.map((w, i) => starts[i]! + w.windowMs);
    return { keys, ends };
  }

  /** The first full window of a policy for a subject, without counting a call; null when none is full. */
  async exhausted(policy: LimitPolicy, subject: string, now: number): Promise<{ window: LimitWindow; resetInMs: number } | null> {
    const { keys, ends } = this.windowsAt(policy, subject, now);
    const counts = await this.backend.peek(keys);
    const full = policy.windows.findIndex((w, i) => counts[i]! >= w.limit);
    return full < 0 ? null : { window: policy.windows[full]!, resetInMs: ends[full]! - now };
  }

  async check(policy: LimitPolicy, subject: string, now: number): Promise<LimitDecision> {
    const { keys, ends } = this.windowsAt(policy, subject, now);
    const { allowed, counts, local } = await this.backend.consume(keys, policy.windows, ends);
    const used = counts.map((c) => c + (allowed ? 1 : 0));
    let binding = 0;
    if (allowed) {
      policy.windows.forEach((w, i) => {
        if (w.limit - used[i]! < policy.windows[binding]!.limit - used[binding]!) binding = i;
      });
    } else {
      binding = policy.windows.findIndex((w, i) => counts[i]! >= w.limit);
    }
    const window = policy.windows[binding]!;
    const bindingRemaining = window.limit - used[binding]!;
    return {
      allowed,
      window,
      remaining: Math.max(0, bindingRemaining),
      resetInMs: ends[binding]! - now,
      ...(local ? { local: true } : {}),
    };
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

export class MemoryLimiterBackend implements LimiterBackend {
  private readonly counts = new Map<string, { count: number; expiresAt: number }>();
  private calls = 0;

  async consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]) {
    if (++this.calls % 10_000 === 0) this.sweep(Math.min(...expiresAt) - Math.max(...windows.map((w) => w.windowMs)));
    const counts = keys.map((k) => this.counts.get(k)?.count ?? 0);
    const allowed = counts.every((c, i) => c < windows[i]!.limit);
    if (allowed) {
      keys.forEach((k, i) => this.counts.set(k, { count: counts[i]! + 1, expiresAt: expiresAt[i]! }));
    }
    return { allowed, counts };
  }

  async peek(keys: string[]) {
    return keys.map((k) => this.counts.get(k)?.count ?? 0);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.counts) if (entry.expiresAt <= now) this.counts.delete(key);
  }

  async close(): Promise<void> {
    this.counts.clear();
  }
}

// Checks every window, then counts in all of them only if none is full: atomic on the Redis server.
const CONSUME_SCRIPT = `
local n = #KEYS
local counts = {}
local allowed = 1
for i = 1, n do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  counts[i] = c
  if c >= tonumber(ARGV[i]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    redis.call('INCR', KEYS[i])
    redis.call('PEXPIREAT', KEYS[i], ARGV[n + i])
  end
end
counts[n + 1] = allowed
return counts
`;

export class RedisLimiterBackend implements LimiterBackend {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Redis expires keys on its own clock; keep them at least this long past the window end. */
    private readonly graceMs = 60_000,
  ) {}

  async consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]) {
    const realNow = Date.now();
    const expiry = expiresAt.map((e) => String(Math.max(e, realNow) + this.graceMs));
    const result = (await this.redis.eval(
      CONSUME_SCRIPT,
      keys.length,
      ...keys.map((k) => this.prefix + 'rl:' + k),
      ...windows.map((w) => String(w.limit)),
      ...expiry,
    )) as number[];
    const counts = result.slice(0, keys.length).map(Number);
    return { allowed: result[keys.length] === 1, counts };
  }

  async peek(keys: string[]) {
    const values = await this.redis.mget(...keys.map((k) => this.prefix + 'rl:' + k));
    return values.map((v) => Number(v ?? 0));
  }

  async close(): Promise<void> {}
}

/**
 * The shared (Redis) counters while they answer; this process's own counters when they do not
 * (docs/decisions/012-faults-and-hostile-input.md): limits stay enforced, per process, during a Redis
 * outage instead of every request failing, and decisions made locally say so (`local`).
 */
export class FallbackLimiterBackend implements LimiterBackend {
  constructor(
    private readonly shared: LimiterBackend,
    private readonly local: LimiterBackend,
    private readonly onFallback: (err: unknown) => void = () => {},
  ) {}

  async consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]) {
    try {
      return await this.shared.consume(keys, windows, expiresAt);
    } catch (err) {
      this.onFallback(err);
      return { ...(await this.local.consume(keys, windows, expiresAt)), local: true };
    }
  }

  async peek(keys: string[]) {
    try {
      return await this.shared.peek(keys);
    } catch (err) {
      this.onFallback(err);
      return this.local.peek(keys);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
