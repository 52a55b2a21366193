/**
 * A map whose entries expire and whose size is capped: when full, the entry written longest ago
 * goes first. Caches that strangers can fill (unknown tokens, client addresses) must not grow
 * without bound, nor be emptied all at once by a flood, which would drop every useful entry too.
 * Times are passed in (milliseconds), so tests move them by hand.
 */
export class ExpiringMap<K, V> {
  readonly #entries = new Map<K, { readonly value: V; readonly expiresAtMs: number }>();

  constructor(private readonly entriesMax: number) {}

  get(key: K, nowMs: number): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > nowMs) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, expiresAtMs: number): void {
    // Deleting first moves a rewritten key to the young end of the insertion order.
    this.#entries.delete(key);
    if (this.#entries.size >= this.entriesMax) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, expiresAtMs });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
