"use client";

import { LOOP_MAX_BOUND, STATE_REDUCERS, STATE_SCOPES, type LoopDeclaration, type StateChannel, type StateReducer, type StateScope } from "@weft/engine";
import { useState, type FormEvent } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { useReportOutcome } from "../../../ui/user-errors";
import { useToast } from "../../../ui/toast";
import type { PipelineSettings } from "./pipeline-settings";
import type { SettingsOutcome } from "./use-pipeline-settings";

interface PipelineSettingsPanelProps {
  settings: PipelineSettings;
  readOnly: boolean;
  save: (input: Partial<PipelineSettings>) => Promise<SettingsOutcome>;
}

type ChannelRow = { name: string; reducer: StateReducer; key: string; scope: StateScope };
type LoopRow = { id: string; max: string; exit: string };

const channelRows = (state: Record<string, StateChannel>): ChannelRow[] =>
  Object.entries(state).map(([name, channel]) => ({ name, reducer: channel.reducer, key: channel.key ?? "", scope: channel.scope ?? "run" }));
const loopRows = (loops: readonly LoopDeclaration[]): LoopRow[] => loops.map((loop) => ({ id: loop.id, max: loop.max === undefined ? "" : String(loop.max), exit: loop.exit ?? "" }));

/** The workflow's state channels, loops and limits (weft.workflow/v2), each list saved as a whole. */
export function PipelineSettingsPanel({ settings, readOnly, save }: PipelineSettingsPanelProps) {
  const t = useT();
  const toast = useToast();
  const report = useReportOutcome();
  const [channels, setChannels] = useState(() => channelRows(settings.state));
  const [loops, setLoops] = useState(() => loopRows(settings.loops));
  const [maxInvocations, setMaxInvocations] = useState(settings.limits.maxInvocations === undefined ? "" : String(settings.limits.maxInvocations));
  const [maxCostUsd, setMaxCostUsd] = useState(settings.limits.maxCostUsd === undefined ? "" : String(settings.limits.maxCostUsd));
  const limits = () => ({ ...(maxInvocations ? { maxInvocations: Number(maxInvocations) } : {}), ...(maxCostUsd ? { maxCostUsd: Number(maxCostUsd) } : {}) });

  async function submit(event: FormEvent, input: Partial<PipelineSettings>) {
    event.preventDefault();
    const outcome = await save(input);
    const errors = outcome.ok ? [] : outcome.errors.length > 0 ? outcome.errors : [{ code: "NETWORK", message: outcome.transport ?? "" }];
    if (report(t("editor.refused.edit"), { errors })) toast.show({ tone: "success", message: t("editor.saved") });
  }

  const state = (): Record<string, StateChannel> =>
    Object.fromEntries(channels.filter((row) => row.name.trim()).map((row) => [row.name.trim(), { reducer: row.reducer, ...(row.key ? { key: row.key } : {}), ...(row.scope !== "run" ? { scope: row.scope } : {}) }]));
  const declaredLoops = (): LoopDeclaration[] =>
    loops.filter((row) => row.id.trim()).map((row) => ({ id: row.id.trim(), exit: row.exit.trim() || null, ...(row.max ? { max: Number(row.max) } : {}) }));
  const setChannel = (index: number, patch: Partial<ChannelRow>) => setChannels((rows) => rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const setLoop = (index: number, patch: Partial<LoopRow>) => setLoops((rows) => rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <div className="pipeline-settings" data-testid="pipeline-settings">
      <form onSubmit={(event) => void submit(event, { state: state() })} aria-label={t("pipeline.state.title")}>
        <h3>{t("pipeline.state.title")}</h3>
        <p className="hint">{t("pipeline.state.help")}</p>
        {channels.map((row, index) => (
          <div key={index} className="settings-row" data-channel={row.name}>
            <input aria-label={t("pipeline.state.name")} placeholder={t("pipeline.state.name")} value={row.name} readOnly={readOnly} onChange={(e) => setChannel(index, { name: e.target.value })} />
            <select aria-label={t("pipeline.state.reducer")} value={row.reducer} disabled={readOnly} onChange={(e) => setChannel(index, { reducer: e.target.value as StateReducer })}>
              {STATE_REDUCERS.map((reducer) => (
                <option key={reducer} value={reducer}>
                  {reducer}
                </option>
              ))}
            </select>
            {row.reducer === "appendUnique" ? <input aria-label={t("pipeline.state.key")} placeholder={t("pipeline.state.key")} value={row.key} readOnly={readOnly} onChange={(e) => setChannel(index, { key: e.target.value })} /> : null}
            <select aria-label={t("pipeline.state.scope")} value={row.scope} disabled={readOnly} onChange={(e) => setChannel(index, { scope: e.target.value as StateScope })}>
              {STATE_SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {scope}
                </option>
              ))}
            </select>
            <Button size="sm" variant="ghost" disabled={readOnly} aria-label={t("pipeline.field.remove", { index: index + 1 })} onClick={() => setChannels((rows) => rows.filter((_, i) => i !== index))}>
              ✕
            </Button>
          </div>
        ))}
        <div className="row">
          <Button size="sm" disabled={readOnly} onClick={() => setChannels((rows) => [...rows, { name: "", reducer: "replace", key: "", scope: "run" }])}>
            + {t("pipeline.state.add")}
          </Button>
          <Button size="sm" type="submit" variant="primary" disabled={readOnly}>
            {t("pipeline.state.save")}
          </Button>
        </div>
      </form>
      <form onSubmit={(event) => void submit(event, { loops: declaredLoops() })} aria-label={t("pipeline.loops.title")}>
        <h3>{t("pipeline.loops.title")}</h3>
        <p className="hint">{t("pipeline.loops.help")}</p>
        {loops.map((row, index) => (
          <div key={index} className="settings-row" data-loop={row.id}>
            <input aria-label={t("pipeline.loop.id")} placeholder={t("pipeline.loop.id")} value={row.id} readOnly={readOnly} onChange={(e) => setLoop(index, { id: e.target.value })} />
            <input aria-label={t("pipeline.loops.max")} type="number" min={1} max={LOOP_MAX_BOUND} value={row.max} readOnly={readOnly} onChange={(e) => setLoop(index, { max: e.target.value })} />
            <input aria-label={t("pipeline.loops.exit")} placeholder={t("pipeline.loops.exit")} value={row.exit} readOnly={readOnly} onChange={(e) => setLoop(index, { exit: e.target.value })} />
            <Button size="sm" variant="ghost" disabled={readOnly} aria-label={t("pipeline.field.remove", { index: index + 1 })} onClick={() => setLoops((rows) => rows.filter((_, i) => i !== index))}>
              ✕
            </Button>
          </div>
        ))}
        <div className="row">
          <Button size="sm" type="submit" variant="primary" disabled={readOnly}>
            {t("pipeline.loops.save")}
          </Button>
        </div>
      </form>
      <form onSubmit={(event) => void submit(event, { limits: limits() })} aria-label={t("pipeline.limits.title")}>
        <h3>{t("pipeline.limits.title")}</h3>
        <label className="field">
          <span>{t("pipeline.limits.maxInvocations")}</span>
          <input type="number" min={1} value={maxInvocations} placeholder="1000" readOnly={readOnly} onChange={(e) => setMaxInvocations(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("pipeline.limits.maxCostUsd")}</span>
          <input type="number" min={0} step="any" value={maxCostUsd} readOnly={readOnly} onChange={(e) => setMaxCostUsd(e.target.value)} />
        </label>
        <Button size="sm" type="submit" variant="primary" disabled={readOnly}>
          {t("pipeline.limits.save")}
        </Button>
      </form>
    </div>
  );
}
