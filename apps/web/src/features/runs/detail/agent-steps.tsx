"use client";

import { useT } from "@/i18n/i18n-provider";
import { parseJsonValue, RichValue } from "@/ui/rich-value";
import { usageCost, type ModelPrice } from "@weft/engine";
import { formatUsd } from "@/ui/format-usd";
import { parseCallInvocation, stepTokens, type AgentStepView, type ToolCallStatus, type ToolCallView } from "../live/agent-trace";
import { rowKey } from "../live/row-key";
import "./agent-steps.css";

const CALL_TONE: Record<ToolCallStatus, string> = { waiting: "queued", running: "running", ok: "completed", failed: "failed" };

/**
 * A call's arguments: JSON as a tree, the model's text (when it was not an object, or too long to read
 * as one) as it is — parsed by RichValue's own reader, with its size limit.
 */
function Arguments({ value }: { value: unknown }) {
  const parsed = typeof value === "string" ? parseJsonValue(value) : value;
  return parsed === undefined ? <pre className="pre">{value as string}</pre> : <RichValue value={parsed} />;
}

function ToolCall({ agentId, call, onSelect }: { agentId: string; call: ToolCallView; onSelect: (row: string) => void }) {
  const t = useT();
  return (
    <li className="agent-call" data-call-id={call.callId} data-call-status={call.status}>
      <div className="agent-call__head">
        <code translate="no">{call.tool}</code>
        <span className={`badge badge--${CALL_TONE[call.status]}`}>{t(`agents.call.status.${call.status}`)}</span>
        <button type="button" className="agent-link" onClick={() => onSelect(rowKey(agentId, call.invocation))}>
          {t("agents.call.open")} <code translate="no">{call.invocation}</code>
        </button>
      </div>
      <div className="agent-call__body">
        <span className="muted">{t("agents.call.arguments")}</span>
        <Arguments value={call.arguments} />
        {call.summary !== null ? (
          <>
            <span className="muted">{call.status === "failed" ? t("agents.call.error") : t("agents.call.result")}</span>
            <pre className={call.status === "failed" ? "pre pre--error" : "pre"} translate="no">
              {call.summary}
            </pre>
          </>
        ) : null}
      </div>
    </li>
  );
}

/**
 * An agent's steps, in order and live while the run streams: each step's reply, tokens and why the model
 * stopped, and the tool calls it asked for with their arguments and result or error. A call opens its
 * own node run (it has the whole result; the events carry at most 200 characters).
 */
export function AgentSteps({ agentId, steps, price = null, onSelect }: { agentId: string; steps: readonly AgentStepView[]; price?: ModelPrice | null; onSelect: (row: string) => void }) {
  const t = useT();
  // At the model's configured prices (the engine's own formula); the node run's cost is what was recorded.
  const costOf = (usage: AgentStepView["usage"]) => (price && usage ? usageCost(usage, price) : null);
  return (
    <section className="agent-steps" aria-label={t("agents.steps.title")} data-testid="agent-steps">
      <h3>
        {t("agents.steps.title")} <span className="muted">{t("agents.steps.summary", { steps: steps.length, tokens: stepTokens(steps) })}</span>
      </h3>
      {steps.length === 0 ? <p className="muted">{t("agents.steps.none")}</p> : null}
      <ol className="agent-steps__list">
        {steps.map((step) => (
          <li key={step.step} className="agent-step" data-step={step.step}>
            <div className="agent-step__head">
              <strong>{t("agents.step.title", { step: step.step })}</strong>
              {step.calls.length === 0 ? <span className="badge badge--completed">{t("agents.step.final")}</span> : <span className="badge">{t("agents.step.calls", { calls: step.calls.length })}</span>}
              {step.usage ? <span className="muted">{t("runs.detail.tokensSplit", { total: step.usage.totalTokens, prompt: step.usage.promptTokens, completion: step.usage.completionTokens })}</span> : null}
              {costOf(step.usage) !== null ? (
                <span className="muted" data-step-cost>
                  {t("agents.step.cost", { cost: formatUsd(costOf(step.usage)!) })}
                </span>
              ) : null}
              {step.finishReason ? (
                <span className="muted">
                  {t("agents.step.finish")} <code>{step.finishReason}</code>
                </span>
              ) : null}
            </div>
            {step.text ? <div className="agent-step__text"><RichValue value={step.text} /></div> : <p className="muted">{t("agents.step.noText")}</p>}
            {step.calls.length > 0 ? (
              <ul className="agent-step__calls">
                {step.calls.map((call) => (
                  <ToolCall key={call.invocation} agentId={agentId} call={call} onSelect={onSelect} />
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Above a tool call's node run: which agent, step and call it was, and the way back to the agent. */
export function ToolCallOrigin({ nodeId, invocation, callId, onSelect }: { nodeId: string; invocation: string; callId: string | null; onSelect: (row: string) => void }) {
  const t = useT();
  const call = parseCallInvocation(invocation);
  if (!call) return null;
  return (
    <p className="notice agent-call-origin" data-testid="tool-call-origin">
      {t("agents.call.origin", { step: call.step, index: call.index })} {callId ? <code translate="no">{callId}</code> : null}{" "}
      <button type="button" className="agent-link" onClick={() => onSelect(rowKey(nodeId, call.parent))}>
        {t("agents.call.back")} <code translate="no">{nodeId}</code>
      </button>
    </p>
  );
}
