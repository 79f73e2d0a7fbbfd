/** A promise a test settles by hand, to control the order in which fake work finishes. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run (a macrotask boundary). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
