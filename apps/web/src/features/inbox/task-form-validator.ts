import type { ErrorSchema, RJSFSchema, RJSFValidationError, ValidationData, ValidatorType } from "@rjsf/utils";
import { createErrorHandler, toErrorSchema, unwrapErrorHandler, validationDataMerge } from "@rjsf/utils";
import { schemaErrors, type JsonValue } from "@weft/engine";

/**
 * The form's validator for react-jsonschema-form, on the engine's JSON Schema check (the one the API
 * runs on completeHumanTask): an interpreter whose `pattern`s go through the linear-time engine. Not
 * rjsf's Ajv validator, which compiles a schema into JavaScript — a task's form is a workflow author's
 * input and must not become code in a reviewer's browser.
 */
export const taskFormValidator: ValidatorType = {
  validateFormData(formData, schema, customValidate, transformErrors, uiSchema): ValidationData<unknown> {
    let errors = rjsfErrors(schema, formData);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const checked: ValidationData<unknown> = { errors, errorSchema: toErrorSchema(errors) as ErrorSchema };
    if (!customValidate) return checked;
    const custom = unwrapErrorHandler(customValidate(formData, createErrorHandler(formData), uiSchema));
    return validationDataMerge(checked, custom);
  },
  isValid(schema, formData, rootSchema) {
    const withDefinitions = rootSchema && typeof schema === "object" ? { ...pickDefinitions(rootSchema), ...schema } : schema;
    return schemaErrors(withDefinitions as JsonValue, toJson(formData)).length === 0;
  },
  rawValidation<Result>(schema: RJSFSchema, formData?: unknown) {
    return { errors: schemaErrors(schema as JsonValue, toJson(formData)) as Result[] };
  },
};

/** The engine's errors (a JSON Pointer and a reason) as rjsf's (a dotted property path and a message). */
export function rjsfErrors(schema: RJSFSchema, formData: unknown): RJSFValidationError[] {
  return schemaErrors(schema as JsonValue, toJson(formData)).map((error) => {
    const segments = error.path.split("/").slice(1).filter((segment) => segment !== "").map(unescapePointer);
    const property = segments.length === 0 ? "." : `.${segments.join(".")}`;
    return { name: "schema", property, message: error.message, stack: `${property} ${error.message}`.trim() };
  });
}

function unescapePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** rjsf leaves undefined where a field is empty; JSON has no undefined: such members are absent. */
function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

function pickDefinitions(root: RJSFSchema): Partial<RJSFSchema> {
  return { ...(root.$defs ? { $defs: root.$defs } : {}), ...(root.definitions ? { definitions: root.definitions } : {}) };
}
