import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { I18nProvider, LANGUAGE_STORAGE_KEY, useT } from "./i18n-provider";
import { LanguageSwitch } from "./language-switch";

function NavLabel() {
  const t = useT();
  return <p>{t("common.nav.workflows")}</p>;
}

function renderWithSwitch() {
  return render(
    <I18nProvider>
      <LanguageSwitch />
      <NavLabel />
    </I18nProvider>,
  );
}

describe("language switch", () => {
  it("renders English by default and Korean after switching, remembering the choice", () => {
    renderWithSwitch();
    expect(screen.getByText("Workflows")).toBeTruthy();

    fireEvent.change(screen.getByRole("combobox"), { target: { value: "ko" } });

    expect(screen.getByText("워크플로")).toBeTruthy();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("ko");
    expect(document.documentElement.lang).toBe("ko");
  });

  it("starts in the stored language on the next visit", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "ko");
    renderWithSwitch();
    expect(screen.getByText("워크플로")).toBeTruthy();
  });

  it("ignores a stored value that is not a supported language", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, "xx");
    renderWithSwitch();
    expect(screen.getByText("Workflows")).toBeTruthy();
  });
});
