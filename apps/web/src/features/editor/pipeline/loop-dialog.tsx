"use client";

import type { LoopDeclaration } from "@weft/engine";
import { useState, type FormEvent } from "react";
import { useT } from "../../../i18n/i18n-provider";
import { Button } from "../../../ui/button";
import { LOOP_BOUNDS, type LoopPlan } from "../rules/connection-check";

interface LoopDialogProps {
  plan: LoopPlan;
  /** The source router's ports: the exit taken once the loop is exhausted is one of the others. */
  ports: readonly string[];
  busy: boolean;
  onConfirm: (loop: LoopDeclaration) => void;
  onCancel: () => void;
}

const LOOP_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A connection back from a router's port to a node upstream closes a loop: the loop is declared here, in
 * the same gesture, with its bound and the port taken when the bound is reached.
 */
export function LoopDialog({ plan, ports, busy, onConfirm, onCancel }: LoopDialogProps) {
  const t = useT();
  const [id, setId] = useState(plan.loop);
  const [max, setMax] = useState(String(LOOP_BOUNDS.initial));
  const [exit, setExit] = useState("");
  const exits = ports.filter((port) => port !== plan.sourcePort);
  const bound = Number(max);
  const validBound = Number.isInteger(bound) && bound >= LOOP_BOUNDS.min && bound <= LOOP_BOUNDS.max;
  const validId = LOOP_ID.test(id);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (validId && validBound) onConfirm({ id, max: bound, exit: exit || null });
  }

  return (
    <form className="loop-dialog" role="dialog" aria-label={t("pipeline.loop.title")} onSubmit={submit}>
      <h2>{t("pipeline.loop.title")}</h2>
      <p className="hint">{t("pipeline.loop.help", { source: plan.source, port: plan.sourcePort, target: plan.target })}</p>
      <label className="field">
        <span>{t("pipeline.loop.id")}</span>
        <input name="loop-id" value={id} onChange={(e) => setId(e.target.value.trim())} aria-invalid={validId ? undefined : true} />
      </label>
      <label className="field">
        <span>{t("pipeline.loop.max", { min: LOOP_BOUNDS.min, max: LOOP_BOUNDS.max })}</span>
        <input name="loop-max" type="number" min={LOOP_BOUNDS.min} max={LOOP_BOUNDS.max} value={max} onChange={(e) => setMax(e.target.value)} aria-invalid={validBound ? undefined : true} />
      </label>
      <label className="field">
        <span>{t("pipeline.loop.exit")}</span>
        <select name="loop-exit" value={exit} onChange={(e) => setExit(e.target.value)}>
          <option value="">{t("pipeline.loop.noExit")}</option>
          {exits.map((port) => (
            <option key={port} value={port}>
              {port}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <Button type="submit" variant="primary" busy={busy} disabled={!validId || !validBound}>
          {t("pipeline.loop.create")}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t("common.action.cancel")}
        </Button>
      </div>
    </form>
  );
}
