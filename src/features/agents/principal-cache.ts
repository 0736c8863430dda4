/**
 * Agent principals by key hash, for one value of the store's access version (a counter that every
 * change to an agent or its grants bumps in the same transaction, by trigger). The caller reads the
 * version before anything else on every request: when it moved, every entry goes, so a revocation,
 * rotation or grant holds from its commit on in every process sharing the store (docs/decisions/016).
 * An entry also ends at the next instant its principal changes by time alone (a sandbox, trial or
 * grant expiring).
 */
export class PrincipalCache<P> {
  private readonly entries = new Map<string, { principal: P; validUntil: number }>();
  private version = -1;

  constructor(private readonly maxEntries = 10_000) {}

  /** The cached principal when the cache is at `version` and the entry has not run out at `now`. */
  get(keyHash: string, version: number, now: number): P | undefined {
    if (version > this.version) {
      this.entries.clear();
      this.version = version;
      return undefined;
    }
    // an older version was read by a request that started before the cache moved on: read the store
    if (version < this.version) return undefined;
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (now < entry.validUntil) return entry.principal;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** Keeps a principal read after `version` was read; dropped when the cache has moved on since. */
  set(keyHash: string, version: number, principal: P, validUntil: number): void {
    if (version !== this.version) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { principal, validUntil });
  }
}
