import type { NodeTypeRegistry } from "@weft/engine";
import { EDIT_REGISTRY } from "./edit-registry";
import type { MessageKey, MessageVars } from "../../../i18n/dictionary.type";
import type { Translate } from "../../../i18n/i18n-provider";
import { en } from "../../../i18n/en/index";

/** A refusal as it arrives from the engine's checks or from the server (a UserError). */
export interface RefusalLike {
  code: string;
  message: string;
  nodeIds?: readonly string[];
  edgeIds?: readonly string[];
  path?: readonly string[] | null;
}

/** The part of the current graph a sentence needs: each node's type by id. */
export interface GraphNodes {
  nodes: readonly { id: string; type: string }[];
}

const TEMPLATES = en.rules as Record<string, string>;

export function hasTemplate(code: string): boolean {
  return code in TEMPLATES && !code.includes(".") && !code.startsWith("type.") && code !== "or";
}

/**
 * The refusal as a sentence in the UI's language, filled with node ids and the types the current graph
 * gives them. Codes without a template keep the server's (English) message.
 */
export function localizeViolation(t: Translate, refusal: RefusalLike, graph?: GraphNodes, registry: NodeTypeRegistry = EDIT_REGISTRY): string {
  if (!hasTemplate(refusal.code)) return refusal.message;
  const nodeIds = refusal.nodeIds ?? [];
  const typeOf = (id: string | undefined) => (id === undefined ? undefined : graph?.nodes.find((node) => node.id === id)?.type);
  const label = (type: string | undefined) => (type === undefined ? "?" : typeLabel(t, type));
  // A sentence that names node types needs them all; a node this graph lacks keeps the server's words.
  if (/\{\w*[tT]ype\w*\}|\{path\}/.test(TEMPLATES[refusal.code] ?? "") && !refusal.path?.length && nodeIds.some((id) => typeOf(id) === undefined)) {
    return refusal.message;
  }
  const [first, second] = nodeIds;
  const vars: MessageVars = {
    node: first ?? "",
    type: label(typeOf(first)),
    second: second ?? "",
    secondType: label(typeOf(second)),
    others: quote(nodeIds.slice(1)),
    nodes: quote(nodeIds),
    path: refusal.path && refusal.path.length > 0 ? refusal.path.join(".") : nodeIds.join(" → "),
    message: refusal.message,
    ...degreeVars(registry, typeOf(first)),
  };
  if (refusal.code === "CYCLE") vars.path = nodeIds.map((id) => `${label(typeOf(id))} "${id}"`).join(" → ");
  if (refusal.code === "TYPE_PAIR_FORBIDDEN") return typePair(t, registry, vars, typeOf(first), typeOf(second));
  const none = `rules.${refusal.code}.none`;
  const key = nodeIds.length === 0 && none.slice(6) in TEMPLATES ? none : `rules.${refusal.code}`;
  return t(key as MessageKey, vars);
}

/** Like the engine: "takes only X nodes" when the target refuses the source, else "feeds only Y nodes". */
function typePair(t: Translate, registry: NodeTypeRegistry, vars: MessageVars, sourceType: string | undefined, targetType: string | undefined): string {
  const sourceSpec = sourceType === undefined ? undefined : registry.get(sourceType);
  const targetSpec = targetType === undefined ? undefined : registry.get(targetType);
  const or = (types: readonly string[] | undefined) => orList(t, (types ?? []).map((type) => typeLabel(t, type)));
  const filled: MessageVars = {
    ...vars,
    source: vars.node ?? "",
    target: vars.second ?? "",
    sourceType: vars.type ?? "",
    targetType: vars.secondType ?? "",
    sourceTypeArticle: withArticle(String(vars.type)),
    targetTypeArticle: withArticle(String(vars.secondType)),
    accepts: or(targetSpec?.accepts),
    feeds: or(sourceSpec?.feeds),
  };
  const feedsVariant = sourceType !== undefined && targetSpec?.accepts.includes(sourceType) === true;
  return t(feedsVariant ? "rules.TYPE_PAIR_FORBIDDEN.feeds" : "rules.TYPE_PAIR_FORBIDDEN", filled);
}

function degreeVars(registry: NodeTypeRegistry, type: string | undefined): MessageVars {
  const spec = type === undefined ? undefined : registry.get(type);
  const maxPre = spec?.inDegree.max ?? 1;
  const maxPost = spec?.outDegree.max ?? 1;
  return { maxPre, maxPreS: maxPre === 1 ? "" : "s", maxPost, maxPostS: maxPost === 1 ? "" : "s" };
}

function typeLabel(t: Translate, type: string): string {
  const key = `type.${type}`;
  return key in TEMPLATES ? t(`rules.${key}` as MessageKey) : type;
}

function orList(t: Translate, words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")}${t("rules.or")}${words[words.length - 1]}`;
}

function withArticle(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

function quote(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(", ");
}
