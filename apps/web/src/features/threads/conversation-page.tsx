"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useQuery } from "urql";
import type { ThreadQuery as ThreadResult } from "@/gql/graphql";
import { useI18n } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { ErrorState, LoadingState, QueryError } from "@/ui/state-views";
import { useReportOutcome } from "@/ui/user-errors";
import { NodeTypesProvider, useNodeTypes } from "../node-types/node-types-context";
import { isTerminalRunStatus } from "../runs/live/run-projection";
import { useLiveRun } from "../runs/live/use-live-run";
import { ConversationWorkflowQuery, ThreadQuery } from "./threads.operations";
import { useTurn } from "./use-turn";
import "../admin-pages.css";
import "./threads.css";
import { RichValue } from "../../ui/rich-value";

/**
 * `/threads/<id>` (and `/workflows/<id>/threads/new` before the first turn): a thread's messages, each
 * linked to the run that added it, its thread state, and a box to send the next turn, which streams like
 * a run. `?run=<id>` follows a turn already sent.
 */
export function ConversationPage({ workflowId, threadId }: { workflowId: string | null; threadId: string | null }) {
  const [{ data, error, fetching }, reload] = useQuery({ query: ThreadQuery, variables: { id: threadId ?? "" }, pause: !threadId, requestPolicy: "network-only" });
  const { t } = useI18n();
  const refresh = useCallback(() => reload({ requestPolicy: "network-only" }), [reload]);
  if (threadId && error && !data) return <QueryError error={error} onRetry={() => reload({ requestPolicy: "network-only" })} />;
  if (threadId && !data && fetching) return <LoadingState />;
  if (threadId && !data?.thread) return <ErrorState message={t("threads.notFound")} />;
  const thread = data?.thread ?? null;
  const workflow = thread?.workflowId ?? workflowId;
  if (!workflow) return <ErrorState message={t("threads.notFound")} />;
  return (
    <NodeTypesProvider>
      <Conversation workflowId={workflow} thread={thread} onTurnEnded={refresh} />
    </NodeTypesProvider>
  );
}

type ThreadData = NonNullable<ThreadResult["thread"]>;

function Conversation({ workflowId, thread, onTurnEnded }: { workflowId: string; thread: ThreadData | null; onTurnEnded: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const search = useSearchParams();
  const report = useReportOutcome();
  const nodeTypes = useNodeTypes();
  const [{ data }] = useQuery({ query: ConversationWorkflowQuery, variables: { workflowId } });
  const inputs = useMemo(() => (data?.workflow?.nodes ?? []).filter((node) => nodeTypes.isSource(node.type)), [data, nodeTypes]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  // The turn to follow: the one sent here, the one named in the address (sent before the first turn
  // made the thread), or the thread's latest run while it is still going (sent elsewhere).
  const [sentRunId, setSentRunId] = useState<string | null>(null);
  const latest = thread?.runs.edges[0]?.node;
  const runId = sentRunId ?? search?.get("run") ?? (latest && !isTerminalRunStatus(latest.status) ? latest.id : null);
  const live = useLiveRun(runId);
  const { sending, sendTurn } = useTurn(workflowId, thread?.id ?? null);
  const answering = runId !== null && !isTerminalRunStatus(live.state.status);

  // The turn's question and answer join the thread when its run completes: read the thread again then,
  // once per run.
  const ended = useRef<string | null>(null);
  useEffect(() => {
    if (!runId || ended.current === runId || !isTerminalRunStatus(live.state.status) || live.events.length === 0) return;
    ended.current = runId;
    onTurnEnded();
  }, [live.events.length, live.state.status, onTurnEnded, runId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const contents = inputs.map((node) => ({ nodeId: node.id, content: texts[node.id] ?? "" })).filter((entry) => entry.content.trim());
    if (contents.length === 0) return;
    const outcome = await sendTurn(contents);
    if (!outcome.ok) {
      report(t("threads.turn.refused"), { errors: outcome.errors.length > 0 ? outcome.errors : [{ code: "NETWORK", message: outcome.transport ?? "" }] });
      return;
    }
    setTexts({});
    if (!thread && outcome.threadId) router.replace(`/threads/${outcome.threadId}?run=${outcome.runId}`);
    else setSentRunId(outcome.runId);
  }

  const messages = thread?.messages.edges.map((edge) => edge.node) ?? [];
  const running = Object.entries(live.state.nodes).find(([, node]) => node.status === "RUNNING")?.[0] ?? null;
  return (
    <div className="page conversation" data-testid="conversation">
      {data?.workflow ? (
        <Link className="conversation__back" href={`/workflows/${workflowId}/threads`}>
          ← {t("threads.back", { name: data.workflow.name })}
        </Link>
      ) : null}
      <h1>{thread ? t("threads.title", { id: thread.id.slice(0, 8) }) : t("threads.newTitle")}</h1>
      {!thread && !answering ? <p className="hint">{t("threads.newHelp")}</p> : null}
      <ol className="messages" aria-label={t("threads.messages")}>
        {messages.map((message) => (
          <li key={message.seq} className={`message message--${message.role.toLowerCase()}`} data-role={message.role} data-seq={message.seq}>
            <div className="message__head">
              <strong>{message.role === "USER" ? t("threads.role.user") : t("threads.role.assistant")}</strong>
              {message.runId ? <Link href={`/runs/${message.runId}`}>{t("threads.openRun")}</Link> : null}
            </div>
            <div className="message__content">{message.role === "USER" ? message.content : <RichValue value={message.content} />}</div>
          </li>
        ))}
        {runId && (answering || live.state.status === "FAILED" || live.state.status === "CANCELLED") ? (
          <li className="message message--assistant message--live" data-testid="live-turn" data-status={live.state.status}>
            <div className="message__head">
              <strong>{t("threads.role.assistant")}</strong>
              <Link href={`/runs/${runId}`}>{t("threads.openRun")}</Link>
            </div>
            <div className="message__content">
              {live.state.status === "FAILED" || live.state.status === "CANCELLED"
                ? t("threads.turn.failed", { code: live.state.error?.code ?? live.state.status })
                : running
                  ? t("threads.turn.running", { node: running })
                  : t("threads.turn.waiting")}
            </div>
          </li>
        ) : null}
      </ol>
      <form className="composer card" onSubmit={(event) => void submit(event)} aria-label={t("threads.composer")}>
        {inputs.map((node) => (
          <label key={node.id} className="field">
            <span>{inputs.length > 1 ? node.id : t("threads.yourMessage")}</span>
            <textarea name={`turn-${node.id}`} rows={3} value={texts[node.id] ?? ""} placeholder={node.content ?? ""} disabled={answering} onChange={(e) => setTexts((all) => ({ ...all, [node.id]: e.target.value }))} />
          </label>
        ))}
        <div className="row">
          <Button type="submit" variant="primary" busy={sending} disabled={answering || (thread?.busy === true && !runId)}>
            {t("threads.send")}
          </Button>
          {thread?.busy && !answering && !runId ? <span className="muted">{t("threads.busyElsewhere")}</span> : null}
        </div>
      </form>
      {thread && Object.keys(thread.state).length > 0 ? (
        <section className="card" data-testid="thread-state">
          <h2>{t("threads.state")}</h2>
          <pre className="pre">{JSON.stringify(thread.state, null, 2)}</pre>
        </section>
      ) : null}
    </div>
  );
}
