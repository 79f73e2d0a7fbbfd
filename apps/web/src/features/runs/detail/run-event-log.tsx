"use client";

import { useI18n, useT } from "@/i18n/i18n-provider";
import type { LiveEvent } from "../live/run-projection";
import { skipReasonText } from "../live/skip-reason";
import { runDescriptionIn } from "../live/run-description.ko";

/** What a weft.workflow/v2 event says, in words: the loop and its feedback, the ports a router took, a map's items. */
function pipelineSummary(event: LiveEvent, t: ReturnType<typeof useT>): string | null {
  const fields = event.pipeline;
  if (!fields) return null;
  switch (event.type) {
    case "LOOP_ITERATION": {
      const loop = t("pipeline.live.loop", { loop: fields.loopId ?? "?", iteration: fields.iteration ?? 1, max: fields.max ?? "?" });
      return fields.feedback ? `${loop} — ${t("pipeline.live.feedback", { feedback: fields.feedback })}` : loop;
    }
    case "BRANCH_TAKEN":
      return t("pipeline.results.branch", { ports: (fields.ports ?? []).join(", ") || "—" });
    case "MAP_STARTED":
      return t("pipeline.results.map", { items: fields.items ?? 0 });
    case "CACHE_HIT":
      return t("pipeline.live.cacheHit", { similarity: fields.similarity === null ? "" : fields.similarity.toFixed(2) });
    default:
      return null;
  }
}

/**
 * An agent's step and its tool calls, in words, and what of the run's data they name (tools, the result's
 * first characters), marked as data; the arguments and whole results are on the agent's steps.
 */
function agentSummary(event: LiveEvent, t: ReturnType<typeof useT>): { text: string; data: string } | null {
  const fields = event.agent;
  if (!fields) return null;
  switch (event.type) {
    case "AGENT_STEP":
      return fields.calls.length === 0
        ? { text: t("agents.log.final", { step: fields.step ?? "?" }), data: "" }
        : { text: t("agents.log.step", { step: fields.step ?? "?" }), data: fields.calls.map((call) => call.tool).join(", ") };
    case "TOOL_CALLED":
      return { text: t("agents.log.called"), data: `${fields.tool ?? "?"} ${event.pipeline?.invocation ?? ""}` };
    case "TOOL_RESULT":
      return { text: fields.ok ? t("agents.log.answered") : t("agents.log.failed"), data: `${fields.tool ?? "?"}: ${fields.summary ?? ""}` };
    default:
      return null;
  }
}

function summary(event: LiveEvent, t: ReturnType<typeof useT>, language: string): string {
  if (event.type === "RUN_RESUMED") return t("runs.live.resumed", { attempt: event.attempt ?? "?" });
  const pipeline = pipelineSummary(event, t);
  if (pipeline !== null) return pipeline;
  if (event.type === "NODE_SKIPPED") return skipReasonText(t, event.reason) ?? "";
  if (event.description !== null) return runDescriptionIn(language, event.description);
  if (event.type === "WARNING" && event.text !== null) return event.text;
  if (event.error) return `${event.error.code}: ${event.error.message}`;
  if (event.reason !== null) return event.reason;
  if (event.type === "RUN_COMPLETED" && event.output !== null) return event.output;
  return "";
}

function EventSummary({ text, agent, serverText }: { text: string; agent: { text: string; data: string } | null; serverText: boolean }) {
  // An error's message is the server's (English) text about the run, shown as it came, like an output.
  if (!agent) return <span className="muted" translate={serverText ? "no" : undefined}>{text.slice(0, 200)}</span>;
  return (
    <span className="muted">
      {agent.text}
      {agent.data ? (
        <>
          {" "}
          <code translate="no">{agent.data.slice(0, 200)}</code>
        </>
      ) : null}
    </span>
  );
}

/** The run's events in order; streamed tokens are counted per node rather than listed one by one. */
export function RunEventLog({ events }: { events: readonly LiveEvent[] }) {
  const t = useT();
  const { language } = useI18n();
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
            {event.nodeId ? <strong translate="no">{event.nodeId}</strong> : null}
            <EventSummary text={summary(event, t, language)} agent={agentSummary(event, t)} serverText={event.error !== null} />
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
