"use client";

import Link from "next/link";
import { useT } from "@/i18n/i18n-provider";
import { Button } from "@/ui/button";
import { useClipboard } from "@/ui/use-clipboard";
import { mcpClientConfig } from "./mcp-client-config";

function CopyButton({ text, testId }: { text: string; testId: string }) {
  const t = useT();
  const { copied, copy } = useClipboard();
  return (
    <>
      <Button size="sm" onClick={() => void copy(text, "text")} data-testid={testId}>
        {copied === "text" ? t("mcpTool.copied") : t("mcpTool.copy")}
      </Button>
      {copied === "failed" ? <span className="field__error">{t("mcpTool.copyFailed")}</span> : null}
    </>
  );
}

/** The /mcp URL of this server and an `mcp.json` entry for it, each with a copy button. */
export function McpClientSnippet({ endpointUrl, authRequired }: { endpointUrl: string; authRequired: boolean }) {
  const t = useT();
  const config = mcpClientConfig(endpointUrl, authRequired);
  return (
    <div data-testid="mcp-client-config">
      <label className="field">
        <span>{t("mcpTool.endpoint")}</span>
        <span className="row">
          <input type="text" readOnly className="mono secret" value={endpointUrl} translate="no" data-testid="mcp-endpoint" onFocus={(event) => event.target.select()} />
          <CopyButton text={endpointUrl} testId="copy-mcp-endpoint" />
        </span>
      </label>
      <div className="field">
        <span>{t("mcpTool.config")}</span>
        <pre className="mono" translate="no" data-testid="mcp-config-json">{config}</pre>
        <span className="row">
          <CopyButton text={config} testId="copy-mcp-config" />
          <span className="hint">
            {authRequired ? (
              <>
                {t("mcpTool.configHelp")} <code translate="no">run</code> <Link href="/api-keys">{t("mcpTool.keysLink")}</Link>
              </>
            ) : (
              t("mcpTool.configHelpLocal")
            )}
          </span>
        </span>
      </div>
    </div>
  );
}
