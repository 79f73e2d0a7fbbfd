import { setPatternCompiler, Validator, type Schema } from "@cfworker/json-schema";
import { compileUserPattern } from "../patterns/user-pattern.js";
import type { JsonValue } from "../model/json-value.js";
import { JSON_SCHEMA_META_SCHEMA } from "./json-schema-meta.js";

/**
 * JSON Schema checks through `@cfworker/json-schema`: drafts 4 to 2020-12, an interpreter (it never
 * compiles a schema to JavaScript, unlike Ajv, so a user's schema cannot become code), and it runs in
 * browsers as in Node. Validators are kept per schema object.
 */
const validators = new WeakMap<object, Validator>();

// `pattern` and `patternProperties` through the linear-time engine (patched into the validator).
setPatternCompiler((pattern) => compileUserPattern(pattern));

export const MAX_SCHEMA_ERRORS_SHOWN = 5;

function validatorFor(schema: object): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as Schema, "2020-12", false);
    validators.set(schema, validator);
  }
  return validator;
}

/** One way a value does not match a schema: where (a JSON Pointer, `/` for the whole value) and why. */
export interface SchemaError {
  path: string;
  message: string;
}

/** What does not match, at most MAX_SCHEMA_ERRORS_SHOWN, the innermost first; empty when the value matches. */
export function schemaErrors(schema: JsonValue, value: JsonValue): SchemaError[] {
  if (typeof schema === "boolean") return schema ? [] : [{ path: "/", message: "the schema accepts nothing" }];
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [{ path: "/", message: "the schema is not a JSON Schema object" }];
  const result = validatorFor(schema).validate(value);
  if (result.valid) return [];
  const leaves = result.errors.filter((error) => !/^(properties|items|allOf|anyOf|oneOf|\$ref)$/.test(error.keyword));
  const shown = (leaves.length > 0 ? leaves : result.errors).slice(0, MAX_SCHEMA_ERRORS_SHOWN);
  return shown.map((error) => ({ path: pointerOf(error.instanceLocation), message: error.error }));
}

/** null when the value matches; else a short list of what does not, `at /path: reason`. */
export function schemaMismatch(schema: JsonValue, value: JsonValue): string | null {
  const errors = schemaErrors(schema, value);
  return errors.length === 0 ? null : errors.map((error) => `at ${error.path}: ${error.message}`).join("; ");
}

/** Whether a value can serve as a schema at all (a boolean, or an object the validator accepts). */
export function schemaProblem(schema: unknown): string | null {
  if (typeof schema === "boolean") return null;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "must be a JSON Schema (an object)";
  try {
    validatorFor(schema).validate(null);
    return null;
  } catch (error) {
    return `is not a usable JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The regular expressions of a JSON Schema (`pattern`, and `patternProperties` keys) with their paths
 * under `base`, for PATTERN_INVALID at edit time. Walked without recursion.
 */
export function schemaPatterns(schema: unknown, base: string): Array<{ field: string; source: string }> {
  const found: Array<{ field: string; source: string }> = [];
  const work: Array<{ value: unknown; path: string }> = [{ value: schema, path: base }];
  while (work.length > 0) {
    const { value, path } = work.pop()!;
    if (value === null || typeof value !== "object") continue;
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    for (const [key, item] of entries) {
      const at = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      if (!Array.isArray(value) && key === "pattern" && typeof item === "string") found.push({ field: at, source: item });
      else if (!Array.isArray(value) && key === "patternProperties" && item !== null && typeof item === "object" && !Array.isArray(item)) {
        for (const pattern of Object.keys(item)) found.push({ field: `${at}[${JSON.stringify(pattern)}]`, source: pattern });
      }
      work.push({ value: item, path: at });
    }
  }
  return found;
}

let metaValidator: Validator | null = null;

/**
 * Whether a value is a JSON Schema by the meta-schema, and usable by the validator: what is wrong, each
 * with the JSON Pointer of the offending part of the schema (`/properties/age/type`); empty when it is.
 */
export function schemaDefinitionErrors(schema: JsonValue): SchemaError[] {
  metaValidator ??= new Validator(JSON_SCHEMA_META_SCHEMA as Schema, "7", false);
  const result = metaValidator.validate(schema);
  if (!result.valid) {
    const leaves = result.errors.filter((error) => !/^(properties|items|allOf|anyOf|oneOf|\$ref|additionalProperties)$/.test(error.keyword));
    const shown = (leaves.length > 0 ? leaves : result.errors).slice(0, MAX_SCHEMA_ERRORS_SHOWN);
    return shown.map((error) => ({ path: pointerOf(error.instanceLocation), message: error.error }));
  }
  const unusable = schemaProblem(schema);
  return unusable ? [{ path: "/", message: unusable }] : [];
}

/** The validator's instance location (`#/a%20b/0`, a URI fragment) as a plain JSON Pointer (`/a b/0`). */
function pointerOf(location: string): string {
  const pointer = location.replace(/^#/, "");
  try {
    return decodeURIComponent(pointer) || "/";
  } catch {
    return pointer || "/";
  }
}
