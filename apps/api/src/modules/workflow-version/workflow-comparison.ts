import canonicalize from "canonicalize";
import { isJsonObject } from "@weft/engine";

/**
 * What differs between two workflow documents (`weft.workflow/*`, as export writes them), found by
 * field name rather than by node type: nodes and edges are matched by id and compared field by field,
 * every other top-level field of the document is a setting. A field whose value is an object on both
 * sides is compared one level down (`params.temperature`, `prompts.generation`), anything else as a
 * whole value. New node types and new document fields are therefore compared without a change here.
 * Pure: no I/O.
 */

type JsonObject = Record<string, unknown>;

export interface FieldChange {
  /** The field's name, or `<field>.<key>` one level inside an object (`params.temperature`). */
  field: string;
  /** Absent fields are null. */
  from: unknown;
  to: unknown;
}

export interface ItemChange {
  id: string;
  fields: FieldChange[];
}

export interface ItemDiff {
  /** Ids in the order of the newer document. */
  added: string[];
  /** Ids in the order of the older document. */
  removed: string[];
  changed: ItemChange[];
}

export interface SettingsDiff {
  added: FieldChange[];
  removed: FieldChange[];
  changed: FieldChange[];
}

export interface WorkflowComparison {
  nodes: ItemDiff;
  edges: ItemDiff;
  settings: SettingsDiff;
  identical: boolean;
}

/** Document fields that hold items with ids; `format` follows from the content and is not compared. */
const ITEM_FIELDS = ["nodes", "edges"] as const;
const NOT_SETTINGS = new Set<string>(["format", ...ITEM_FIELDS]);

export function compareWorkflowDocuments(from: JsonObject, to: JsonObject): WorkflowComparison {
  const nodes = compareItems(itemsOf(from, "nodes"), itemsOf(to, "nodes"));
  const edges = compareItems(itemsOf(from, "edges"), itemsOf(to, "edges"));
  const settings = compareSettings(from, to);
  const identical = [nodes, edges].every(isEmptyItemDiff) && [settings.added, settings.removed, settings.changed].every((list) => list.length === 0);
  return { nodes, edges, settings, identical };
}

function compareItems(from: JsonObject[], to: JsonObject[]): ItemDiff {
  const before = new Map(from.map((item) => [String(item["id"]), item]));
  const after = new Set(to.map((item) => String(item["id"])));
  const diff: ItemDiff = { added: [], removed: [], changed: [] };
  for (const item of to) {
    const id = String(item["id"]);
    const old = before.get(id);
    if (!old) {
      diff.added.push(id);
      continue;
    }
    const fields = compareFields(old, item, new Set(["id"]));
    if (fields.length > 0) diff.changed.push({ id, fields });
  }
  for (const item of from) if (!after.has(String(item["id"]))) diff.removed.push(String(item["id"]));
  return diff;
}

function compareSettings(from: JsonObject, to: JsonObject): SettingsDiff {
  const diff: SettingsDiff = { added: [], removed: [], changed: [] };
  for (const change of compareFields(from, to, NOT_SETTINGS)) {
    if (change.from === null) diff.added.push(change);
    else if (change.to === null) diff.removed.push(change);
    else diff.changed.push(change);
  }
  return diff;
}

/** Fields of `to` in its order, then fields only `from` has; objects on both sides one level down. */
function compareFields(from: JsonObject, to: JsonObject, skip: ReadonlySet<string>, prefix = ""): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fieldNames(from, to)) {
    if (skip.has(field)) continue;
    const a = from[field];
    const b = to[field];
    if (prefix === "" && isJsonObject(a) && isJsonObject(b)) {
      changes.push(...compareFields(a, b, new Set(), `${field}.`));
    } else if (!sameValue(a, b)) {
      changes.push({ field: prefix + field, from: a ?? null, to: b ?? null });
    }
  }
  return changes;
}

function fieldNames(from: JsonObject, to: JsonObject): string[] {
  const names = Object.keys(to);
  for (const name of Object.keys(from)) if (!Object.hasOwn(to, name)) names.push(name);
  return names;
}

/** JSON equality whatever the key order; absent and null are the same. */
function sameValue(a: unknown, b: unknown): boolean {
  return canonicalize(a ?? null) === canonicalize(b ?? null);
}

function itemsOf(document: JsonObject, field: (typeof ITEM_FIELDS)[number]): JsonObject[] {
  const items = document[field];
  return Array.isArray(items) ? items.filter(isJsonObject) : [];
}


function isEmptyItemDiff(diff: ItemDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}
