import { describe, expect, it } from "vitest";
import { renderPrompt } from "./prompt-template.js";

describe("renderPrompt", () => {
  it("substitutes every placeholder, wherever and however often it appears", () => {
    const rendered = renderPrompt("Q: {input_data}\nC: {context}\nF: {output_format} / {input_data}", {
      input_data: "in",
      context: "ctx",
      output_format: "json",
    });
    expect(rendered).toEqual({ text: "Q: in\nC: ctx\nF: json / in", emptyPlaceholders: [] });
  });

  it("keeps placeholder-like text inside an input literal", () => {
    const rendered = renderPrompt("{input_data} then {output_format}", {
      input_data: "user wrote {output_format} and {context}",
      context: null,
      output_format: "FORMAT",
    });
    expect(rendered.text).toBe("user wrote {output_format} and {context} then FORMAT");
    expect(rendered.emptyPlaceholders).toEqual([]);
  });

  it("empties a placeholder with no value and reports it once", () => {
    const rendered = renderPrompt("{context}|{input_data}|{context}", {
      input_data: "x",
      context: null,
      output_format: "",
    });
    expect(rendered).toEqual({ text: "|x|", emptyPlaceholders: ["context"] });
  });

  it("does not report placeholders the template does not use", () => {
    expect(renderPrompt("{input_data}", { input_data: "a", context: null, output_format: "" }).emptyPlaceholders).toEqual(
      [],
    );
  });

  it("leaves unknown braces alone", () => {
    const rendered = renderPrompt("{foo} {input_data}", { input_data: "a", context: null, output_format: "" });
    expect(rendered.text).toBe("{foo} a");
  });
});
