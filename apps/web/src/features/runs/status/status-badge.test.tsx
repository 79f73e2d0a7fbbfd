import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { I18nProvider } from "@/i18n/i18n-provider";
import { LANGUAGE_STORAGE_KEY } from "@/i18n/i18n-provider";
import { StatusBadge, statusTone } from "./status-badge";

describe("status badge", () => {
  it("labels each run status and tints it by outcome", () => {
    render(
      <I18nProvider>
        <StatusBadge status="COMPLETED" />
        <StatusBadge status="FAILED" />
        <StatusBadge status="RUNNING" />
      </I18nProvider>,
    );
    expect(screen.getByText("Completed").className).toContain("badge--completed");
    expect(screen.getByText("Failed").className).toContain("badge--failed");
    expect(screen.getByText("Running").closest(".badge")?.className).toContain("badge--running");
  });

  it("speaks Korean when Korean was chosen", async () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "ko");
    render(
      <I18nProvider>
        <StatusBadge status="CANCELLED" />
      </I18nProvider>,
    );
    expect(await screen.findByText("취소됨")).toBeTruthy();
  });

  it("groups node states with the run states they look like", () => {
    expect(statusTone("PENDING")).toBe("queued");
    expect(statusTone("SKIPPED")).toBe("skipped");
    expect(statusTone("CANCELLED")).toBe("cancelled");
  });
});
