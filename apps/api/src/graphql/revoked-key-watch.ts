import type { WebSocket } from "ws";
import type { Logger } from "../logger.js";
import type { ApiKeyService } from "../modules/api-key/index.js";
import { ALL_KEYS, type EventBus } from "../pubsub.js";

/** graphql-ws's Forbidden: clients do not reconnect after it. The reason says why. */
export const KEY_REVOKED_CLOSE_CODE = 4403;
export const KEY_REVOKED_REASON = "API key revoked";

export interface RevokedKeyWatch {
  /** Tracks a socket opened with this key until it closes. */
  add(keyId: string, socket: WebSocket): void;
  stop(): Promise<void>;
}

/**
 * Ends the WebSockets of a key the moment it is revoked: every process hears the revocation on the
 * event bus (in-process, or Redis with several processes), forgets the key's remembered caller (so its
 * next HTTP request is refused too) and closes the key's sockets with 4403, which ends their subscriptions. Revocations the bus cannot carry (the `revoke-key` command runs in
 * its own process) are found by re-checking the keys of open sockets every `recheckMs`.
 */
export async function watchRevokedKeys(options: {
  bus: EventBus;
  apiKeys: Pick<ApiKeyService, "revokedAmong" | "forget">;
  recheckMs: number;
  logger: Logger;
}): Promise<RevokedKeyWatch> {
  const { bus, apiKeys, logger } = options;
  const sockets = new Map<string, Set<WebSocket>>();

  const closeKey = (keyId: string, how: "announced" | "rechecked") => {
    const open = sockets.get(keyId);
    if (!open) return;
    sockets.delete(keyId);
    logger.info({ apiKeyId: keyId, sockets: open.size, how }, "closed the WebSockets of a revoked API key");
    for (const socket of open) socket.close(KEY_REVOKED_CLOSE_CODE, KEY_REVOKED_REASON);
  };

  const unsubscribe = await bus.subscribe("apiKeyRevoked", ALL_KEYS, ({ keyId }) => {
    apiKeys.forget(keyId);
    closeKey(keyId, "announced");
  });

  let checking: Promise<void> = Promise.resolve();
  const recheck = async () => {
    try {
      for (const keyId of await apiKeys.revokedAmong([...sockets.keys()])) closeKey(keyId, "rechecked");
    } catch (error) {
      logger.warn({ err: error }, "could not re-check the keys of open WebSockets; will try again");
    }
  };
  const timer = setInterval(() => {
    checking = checking.then(recheck);
  }, options.recheckMs);
  timer.unref();

  return {
    add(keyId, socket) {
      let open = sockets.get(keyId);
      if (!open) sockets.set(keyId, (open = new Set()));
      open.add(socket);
      socket.once("close", () => {
        const current = sockets.get(keyId);
        current?.delete(socket);
        if (current?.size === 0) sockets.delete(keyId);
      });
    },
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await checking;
    },
  };
}
