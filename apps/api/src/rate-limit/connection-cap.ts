/**
 * Open WebSocket connections per caller. Sockets belong to the process that accepted them, so this count
 * is per process by nature (no shared store needed). A cap of 0 allows any number.
 */
export class ConnectionCap {
  readonly #open = new Map<string, number>();

  constructor(readonly maxPerCaller: number) {}

  /** Counts a new connection for the caller, or refuses it when the caller is at the cap. */
  tryOpen(caller: string): boolean {
    const open = this.#open.get(caller) ?? 0;
    if (this.maxPerCaller > 0 && open >= this.maxPerCaller) return false;
    this.#open.set(caller, open + 1);
    return true;
  }

  release(caller: string): void {
    const open = this.#open.get(caller) ?? 0;
    if (open <= 1) this.#open.delete(caller);
    else this.#open.set(caller, open - 1);
  }

  openFor(caller: string): number {
    return this.#open.get(caller) ?? 0;
  }
}
