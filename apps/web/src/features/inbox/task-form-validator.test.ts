import type { RJSFSchema } from "@rjsf/utils";
import { describe, expect, it } from "vitest";
import { rjsfErrors, taskFormValidator } from "./task-form-validator";

const FORM: RJSFSchema = {
  type: "object",
  properties: {
    headline: { type: "string", minLength: 1, maxLength: 20 },
    stars: { type: "integer", minimum: 1, maximum: 5 },
    tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } },
  },
  required: ["headline"],
};

describe("the task form's validator", () => {
  it("accepts data that fits the form", () => {
    expect(taskFormValidator.validateFormData({ headline: "Sky", stars: 3, tags: ["air"] }, FORM)).toEqual({ errors: [], errorSchema: {} });
    expect(taskFormValidator.isValid(FORM, { headline: "Sky" }, FORM)).toBe(true);
  });

  it("puts each error at its field, the way rjsf shows errors beside fields", () => {
    const { errors, errorSchema } = taskFormValidator.validateFormData({ headline: "", stars: 9, tags: ["ok", "Not OK"] }, FORM);
    expect(errors.map((error) => error.property).sort()).toEqual([".headline", ".stars", ".tags.1"]);
    expect(errorSchema).toMatchObject({ headline: { __errors: [expect.any(String)] }, stars: { __errors: [expect.any(String)] }, tags: { 1: { __errors: [expect.any(String)] } } });
  });

  it("reports a missing required field on the object and treats absent fields as absent, not null", () => {
    const errors = rjsfErrors(FORM, { stars: undefined });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/headline/);
    expect(taskFormValidator.isValid(FORM, { headline: "Sky", stars: undefined }, FORM)).toBe(true);
  });

  it("checks patterns with the engine's linear-time matcher, so a hostile pattern cannot hang the page", () => {
    const hostile: RJSFSchema = { type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } } };
    expect(taskFormValidator.isValid(hostile, { text: `${"a".repeat(50_000)}!` }, hostile)).toBe(false);
  });

  it("adds what a custom validation finds to the schema's errors", () => {
    const { errorSchema } = taskFormValidator.validateFormData({ headline: "Sky" }, FORM, (data, errors) => {
      errors.headline?.addError("must not be Sky");
      return errors;
    });
    expect(errorSchema).toMatchObject({ headline: { __errors: ["must not be Sky"] } });
  });
});
