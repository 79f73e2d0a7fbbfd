/**
 * A push-to-pull bridge: producers `push`, one consumer iterates. Unlike an async generator, `return()`
 * takes effect at once even while the consumer is waiting, so a client that unsubscribes from a quiet
 * stream releases its bus subscription immediately instead of at the next event.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  #head = 0;
  #waiter: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | null = null;
  #ended = false;
  #error: { error: unknown } | null = null;
  readonly #onClose: () => void;

  constructor(onClose: () => void = () => undefined) {
    this.#onClose = onClose;
  }

  get closed(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    if (this.#waiter) {
      const waiter = this.#waiter;
      this.#waiter = null;
      waiter.resolve({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /** Ends the stream after the items already pushed. */
  end(): void {
    this.#finish(null);
  }

  /** Ends the stream with an error, delivered after the items already pushed. */
  fail(error: unknown): void {
    this.#finish({ error });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head]!;
      this.#head += 1;
      // Taken items are let go: at once when the queue is empty again (the usual case: a subscriber keeps
      // up), else in bulk once they are most of it. Ten thousand subscriptions each holding the last
      // thousand events of a long run would be tens of megabytes of references.
      if (this.#head === this.#items.length) this.#clear();
      else if (this.#head > 1024 && this.#head * 2 > this.#items.length) this.#compact();
      return Promise.resolve({ value, done: false });
    }
    if (this.#error) {
      const { error } = this.#error;
      this.#error = null;
      return Promise.reject(error);
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.#items.length = 0;
    this.#head = 0;
    this.#error = null;
    this.#finish(null);
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<T>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  #finish(error: { error: unknown } | null): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#onClose();
    const waiter = this.#waiter;
    this.#waiter = null;
    if (!waiter) return;
    if (error) {
      this.#error = null;
      waiter.reject(error.error);
    } else {
      waiter.resolve({ value: undefined, done: true });
    }
  }

  #clear(): void {
    this.#items.length = 0;
    this.#head = 0;
  }

  #compact(): void {
    this.#items.splice(0, this.#head);
    this.#head = 0;
  }
}
