"use client";

import { useT } from "@/i18n/i18n-provider";
import type { LiveEvent } from "../live/run-projection";

function summary(event: LiveEvent, t: ReturnType<typeof useT>): string {
  if (event.type === "RUN_RESUMED") return t("runs.live.resumed", { attempt: event.attempt ?? "?" });
  if (event.description !== null) return event.description;
  if (event.type === "WARNING" && event.text !== null) return event.text;
  if (event.error) return `${event.error.code}: ${event.error.message}`;
  if (event.reason !== null) return event.reason;
  if (event.type === "RUN_COMPLETED" && event.output !== null) return event.output;
  return "";
}

/** The run's events in order; streamed tokens are counted per node rather than listed one by one. */
export function RunEventLog({ events }: { events: readonly LiveEvent[] }) {
  const t = useT();
  const tokens = new Map<string, number>();
  const shown: LiveEvent[] = [];
  for (const event of events) {
    if (event.type === "NODE_TOKEN") {
      const key = event.nodeId ?? "";
      tokens.set(key, (tokens.get(key) ?? 0) + 1);
    } else {
      shown.push(event);
    }
  }
  return (
    <div className="events">
      <ol>
        {shown.map((event) => (
          <li key={event.seq} data-event-type={event.type}>
            <span className="muted num">#{event.seq}</span>
            <code>{event.type}</code>
            {event.nodeId ? <strong>{event.nodeId}</strong> : null}
            <span className="muted">{summary(event, t).slice(0, 140)}</span>
          </li>
        ))}
      </ol>
      {tokens.size > 0 ? (
        <p className="muted">
          NODE_TOKEN × {[...tokens.values()].reduce((a, b) => a + b, 0)}
        </p>
      ) : null}
    </div>
  );
}
