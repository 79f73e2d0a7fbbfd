/**
 * The run list's filters as the page holds them (form values) and as the API takes them. Times are
 * `datetime-local` values, i.e. local wall-clock time; the API wants instants.
 */
export const RUN_STATUSES = ["QUEUED", "RUNNING", "WAITING", "COMPLETED", "FAILED", "CANCELLED"] as const;
export type RunStatusFilter = (typeof RUN_STATUSES)[number];

/** What a run executed: any, the draft, any published version, or one version (`"3"`) of the chosen workflow. */
export type RunVersionFilter = "" | "draft" | "published" | `${number}`;

export interface RunFilters {
  workflowId: string;
  status: RunStatusFilter | "";
  version: RunVersionFilter;
  from: string;
  to: string;
  /** Runs started by one webhook or schedule (its id), from the triggers page's links. */
  triggerId: string;
}

export const EMPTY_FILTERS: RunFilters = { workflowId: "", status: "", version: "", from: "", to: "", triggerId: "" };

export interface RunQueryFilters {
  workflowId?: string;
  status?: RunStatusFilter[];
  version?: number;
  draft?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  triggerId?: string;
}

const isVersionNumber = (value: string): value is `${number}` => /^[1-9]\d*$/.test(value);

function readVersion(value: string): RunVersionFilter {
  return value === "draft" || value === "published" || isVersionNumber(value) ? value : "";
}

function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function toQueryFilters(filters: RunFilters): RunQueryFilters {
  const result: RunQueryFilters = {};
  if (filters.workflowId) result.workflowId = filters.workflowId;
  if (filters.status) result.status = [filters.status];
  if (filters.version === "draft") result.draft = true;
  else if (filters.version === "published") result.draft = false;
  // A version number means something only within one workflow.
  else if (filters.version && filters.workflowId) result.version = Number(filters.version);
  const after = localToIso(filters.from);
  const before = localToIso(filters.to);
  if (after) result.createdAfter = after;
  if (before) result.createdBefore = before;
  if (filters.triggerId) result.triggerId = filters.triggerId;
  return result;
}

export const hasFilters = (filters: RunFilters): boolean => Object.values(filters).some((value) => value !== "");

/** Filters live in the address so a filtered list can be bookmarked and survives a reload. */
export function filtersFromSearch(search: URLSearchParams): RunFilters {
  const status = search.get("status") ?? "";
  return {
    workflowId: search.get("workflow") ?? "",
    status: (RUN_STATUSES as readonly string[]).includes(status) ? (status as RunStatusFilter) : "",
    version: readVersion(search.get("version") ?? ""),
    from: search.get("from") ?? "",
    to: search.get("to") ?? "",
    triggerId: search.get("trigger") ?? "",
  };
}

export function filtersToSearch(filters: RunFilters): string {
  const params = new URLSearchParams();
  if (filters.workflowId) params.set("workflow", filters.workflowId);
  if (filters.status) params.set("status", filters.status);
  if (filters.version) params.set("version", filters.version);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.triggerId) params.set("trigger", filters.triggerId);
  const text = params.toString();
  return text ? `?${text}` : "";
}
