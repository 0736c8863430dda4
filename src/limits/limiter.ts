import type { Redis } from 'ioredis';
import { withinDeadline } from '../platform/deadline.js';
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

/** The windows of one policy for one subject, counted together or not at all. */
export interface ConsumeGroup {
  keys: string[];
  windows: readonly LimitWindow[];
  expiresAt: number[];
}

export interface AdmitOutcome {
  /** Counts of the guard keys; nothing was counted when one of them was at its limit. */
  guardCounts: number[];
  /** One result per group, in order, up to and including the first refused one. */
  groups: Array<{ allowed: boolean; counts: number[] }>;
  local?: boolean;
}

/** Fixed windows aligned to the epoch; a refused call is not counted. */
export interface LimiterBackend {
  /** Counts one call in every window unless one of them is full; returns the counts before the call. */
  consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]): Promise<{ allowed: boolean; counts: number[]; local?: boolean }>;
  /** Current counts of the keys, without counting anything. */
  peek(keys: string[]): Promise<number[]>;
  /**
   * One request's admission in one call (one Redis round trip): stops when a guard key is at its limit,
   * else consumes the groups in order as `consume` would, stopping after the first refused group.
   */
  admit(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): Promise<AdmitOutcome>;
  /** `admit` at once, for a backend that counts in this process; absent when counting needs a round trip. */
  admitNow?(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): AdmitOutcome;
  close(): Promise<void>;
}

/** A policy checked for one subject. */
export interface LimitCheck {
  policy: LimitPolicy;
  subject: string;
}

export interface Admission {
  /** The guard policy's first full window: the request is refused and nothing was counted. */
  guardFull: { window: LimitWindow; resetInMs: number } | null;
  /** One decision per check, in order, up to and including the first refusal. */
  decisions: LimitDecision[];
}

export class Limiter {
  constructor(private readonly backend: LimiterBackend) {}

  private windowsAt(policy: LimitPolicy, subject: string, now: number) {
    const keys: string[] = [];
    const ends: number[] = [];
    for (const w of policy.windows) {
      const start = Math.floor(now / w.windowMs) * w.windowMs;
      keys.push(`${policy.name}:${subject}:${w.name}:${start}`);
      ends.push(start + w.windowMs);
    }
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
    return this.decide(policy, allowed, counts, ends, now, local);
  }

  /**
   * `exhausted(guard)` and then `check` of every policy in order, stopping at the first refusal, in one
   * backend call: a request's error budget and rate limits cost one Redis round trip.
   */
  async admit(guard: LimitCheck | null, checks: readonly LimitCheck[], now: number): Promise<Admission> {
    const request = this.admissionRequest(guard, checks, now);
    return this.admission(guard, checks, now, request, await this.backend.admit(request.guard, request.groups));
  }

  /** `admit` without a promise when the backend counts in this process; undefined when it needs a round trip. */
  admitNow(guard: LimitCheck | null, checks: readonly LimitCheck[], now: number): Admission | undefined {
    if (!this.backend.admitNow) return undefined;
    const request = this.admissionRequest(guard, checks, now);
    return this.admission(guard, checks, now, request, this.backend.admitNow(request.guard, request.groups));
  }

  private admissionRequest(guard: LimitCheck | null, checks: readonly LimitCheck[], now: number) {
    const guardWindows = guard ? this.windowsAt(guard.policy, guard.subject, now) : { keys: [], ends: [] };
    const windows = checks.map(({ policy, subject }) => this.windowsAt(policy, subject, now));
    return {
      guardWindows,
      windows,
      guard: { keys: guardWindows.keys, limits: guard ? guard.policy.windows.map((w) => w.limit) : [] },
      groups: checks.map(({ policy }, i): ConsumeGroup => ({ keys: windows[i]!.keys, windows: policy.windows, expiresAt: windows[i]!.ends })),
    };
  }

  private admission(guard: LimitCheck | null, checks: readonly LimitCheck[], now: number, request: ReturnType<Limiter['admissionRequest']>, outcome: AdmitOutcome): Admission {
    if (guard) {
      const full = guard.policy.windows.findIndex((w, i) => outcome.guardCounts[i]! >= w.limit);
      if (full >= 0) return { guardFull: { window: guard.policy.windows[full]!, resetInMs: request.guardWindows.ends[full]! - now }, decisions: [] };
    }
    const decisions = outcome.groups.map(({ allowed, counts }, i) => this.decide(checks[i]!.policy, allowed, counts, request.windows[i]!.ends, now, outcome.local));
    return { guardFull: null, decisions };
  }

  private decide(policy: LimitPolicy, allowed: boolean, counts: number[], ends: number[], now: number, local: boolean | undefined): LimitDecision {
    const windows = policy.windows;
    const used = allowed ? 1 : 0;
    let binding = 0;
    if (allowed) {
      for (let i = 1; i < windows.length; i++) {
        if (windows[i]!.limit - (counts[i]! + used) < windows[binding]!.limit - (counts[binding]! + used)) binding = i;
      }
    } else {
      binding = windows.findIndex((w, i) => counts[i]! >= w.limit);
    }
    const window = windows[binding]!;
    const bindingRemaining = window.limit - (counts[binding]! + used);
    const decision: LimitDecision = { allowed, window, remaining: Math.max(0, bindingRemaining), resetInMs: ends[binding]! - now };
    if (local) decision.local = true;
    return decision;
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

export class MemoryLimiterBackend implements LimiterBackend {
  private readonly counts = new Map<string, { count: number; expiresAt: number }>();
  private calls = 0;

  async consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]) {
    return this.consumeNow(keys, windows, expiresAt);
  }

  private consumeNow(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]): { allowed: boolean; counts: number[] } {
    if (++this.calls % 10_000 === 0) this.sweep(Math.min(...expiresAt) - Math.max(...windows.map((w) => w.windowMs)));
    const counts = keys.map((k) => this.counts.get(k)?.count ?? 0);
    const allowed = counts.every((c, i) => c < windows[i]!.limit);
    if (allowed) {
      for (let i = 0; i < keys.length; i++) {
        const entry = this.counts.get(keys[i]!);
        if (entry) {
          entry.count = counts[i]! + 1;
          entry.expiresAt = expiresAt[i]!;
        } else this.counts.set(keys[i]!, { count: counts[i]! + 1, expiresAt: expiresAt[i]! });
      }
    }
    return { allowed, counts };
  }

  async peek(keys: string[]) {
    return keys.map((k) => this.counts.get(k)?.count ?? 0);
  }

  async admit(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): Promise<AdmitOutcome> {
    return this.admitNow(guard, groups);
  }

  admitNow(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): AdmitOutcome {
    const guardCounts = guard.keys.map((k) => this.counts.get(k)?.count ?? 0);
    const results: AdmitOutcome['groups'] = [];
    if (guardCounts.some((c, i) => c >= guard.limits[i]!)) return { guardCounts, groups: results };
    // in memory every group is counted at once: no promise per group
    for (const group of groups) {
      const result = this.consumeNow(group.keys, group.windows, group.expiresAt);
      results.push(result);
      if (!result.allowed) break;
    }
    return { guardCounts, groups: results };
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

// ARGV: guard key count, group count, the guard limits, then per group its key count, limits and expiries.
// Returns the guard counts, then (unless a guard key is full) per group its counts and 1/0 for allowed.
const ADMIT_SCRIPT = `
local nGuard = tonumber(ARGV[1])
local nGroups = tonumber(ARGV[2])
local out = {}
local full = false
for i = 1, nGuard do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  out[#out + 1] = c
  if c >= tonumber(ARGV[2 + i]) then full = true end
end
if full then return out end
local a = 3 + nGuard
local k = nGuard
for g = 1, nGroups do
  local n = tonumber(ARGV[a])
  local counts = {}
  local allowed = 1
  for i = 1, n do
    local c = tonumber(redis.call('GET', KEYS[k + i]) or '0')
    counts[i] = c
    if c >= tonumber(ARGV[a + i]) then allowed = 0 end
  end
  if allowed == 1 then
    for i = 1, n do
      redis.call('INCR', KEYS[k + i])
      redis.call('PEXPIREAT', KEYS[k + i], ARGV[a + n + i])
    end
  end
  for i = 1, n do out[#out + 1] = counts[i] end
  out[#out + 1] = allowed
  if allowed == 0 then return out end
  a = a + 1 + 2 * n
  k = k + n
end
return out
`;

export class RedisLimiterBackend implements LimiterBackend {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** A call not answered within this time fails (and the fallback counts it in this process). */
    private readonly answerWithinMs: number,
    /** Redis expires keys on its own clock; keep them at least this long past the window end. */
    private readonly graceMs = 60_000,
  ) {}

  private answer<T>(call: Promise<T>): Promise<T> {
    return withinDeadline(call, this.answerWithinMs, 'Redis');
  }

  async consume(keys: string[], windows: readonly LimitWindow[], expiresAt: number[]) {
    const realNow = Date.now();
    const expiry = expiresAt.map((e) => String(Math.max(e, realNow) + this.graceMs));
    const result = (await this.answer(this.redis.eval(CONSUME_SCRIPT, keys.length, ...keys.map((k) => this.prefix + 'rl:' + k), ...windows.map((w) => String(w.limit)), ...expiry))) as number[];
    const counts = result.slice(0, keys.length).map(Number);
    return { allowed: result[keys.length] === 1, counts };
  }

  async peek(keys: string[]) {
    const values = await this.answer(this.redis.mget(...keys.map((k) => this.prefix + 'rl:' + k)));
    return values.map((v) => Number(v ?? 0));
  }

  async admit(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): Promise<AdmitOutcome> {
    const realNow = Date.now();
    const keys = [...guard.keys, ...groups.flatMap((g) => g.keys)].map((k) => this.prefix + 'rl:' + k);
    const args = [String(guard.keys.length), String(groups.length), ...guard.limits.map(String)];
    for (const group of groups) {
      args.push(String(group.keys.length), ...group.windows.map((w) => String(w.limit)), ...group.expiresAt.map((e) => String(Math.max(e, realNow) + this.graceMs)));
    }
    const result = ((await this.answer(this.redis.eval(ADMIT_SCRIPT, keys.length, ...keys, ...args))) as number[]).map(Number);
    const guardCounts = result.slice(0, guard.keys.length);
    const outcome: AdmitOutcome = { guardCounts, groups: [] };
    let at = guard.keys.length;
    for (const group of groups) {
      if (at >= result.length) break;
      const n = group.keys.length;
      outcome.groups.push({ counts: result.slice(at, at + n), allowed: result[at + n] === 1 });
      at += n + 1;
    }
    return outcome;
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

  async admit(guard: { keys: string[]; limits: number[] }, groups: ConsumeGroup[]): Promise<AdmitOutcome> {
    try {
      return await this.shared.admit(guard, groups);
    } catch (err) {
      this.onFallback(err);
      return { ...(await this.local.admit(guard, groups)), local: true };
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }
}
