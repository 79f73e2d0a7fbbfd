/* eslint-disable no-var -- global declarations of host objects must use `declare var` */
/**
 * The few host APIs the engine uses, declared for the build. The build compiles without @types/node so
 * that Node-only APIs (process, fs, Buffer) cannot creep into the pure engine; these exist in Node and
 * in browsers alike. Type-checking and tests use @types/node, which declares the same names.
 */
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  timeout(milliseconds: number): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
};
interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
declare var AbortController: { prototype: AbortController; new (): AbortController };
declare function setTimeout(callback: () => void, milliseconds?: number): unknown;
declare function clearTimeout(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;
declare var performance: { now(): number };
