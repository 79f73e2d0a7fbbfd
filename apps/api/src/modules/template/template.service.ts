import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { serializeWorkflow, type Workflow } from "@weft/engine";
import { failure, success, type Outcome } from "../../errors/outcome.js";
import { notFoundError } from "../../errors/user-error.type.js";
import type { Logger } from "../../logger.js";
import type { KnowledgeBaseService } from "../knowledge-base/index.js";
import type { WorkflowService } from "../workflow/index.js";
import { defaultExamplesDir, knowledgeBaseFolder, knowledgeBasesNamed, TEMPLATES, type TemplateEntry } from "./template-catalogue.js";
import type { WorkflowTemplateObject } from "./template.type.js";

interface TemplateDeps {
  workflows: Pick<WorkflowService, "documents">;
  knowledgeBases: Pick<KnowledgeBaseService, "find" | "create" | "documents">;
  /** The seed-000 demo, built in code (app/demo-workflow.ts). */
  demo: () => Workflow;
  logger: Logger;
  examplesDir?: string;
}

/**
 * Templates: the demo and the seed pipelines, each created in one step as a new workflow together with
 * the knowledge bases it searches (made from examples/knowledge-bases/<name>/*.md when none of that name
 * exists, indexed before the answer), so the new workflow runs offline at once.
 */
export class TemplateService {
  readonly #dir: string;
  readonly #documents = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TemplateDeps) {
    this.#dir = deps.examplesDir ?? defaultExamplesDir;
  }

  async list(): Promise<WorkflowTemplateObject[]> {
    return Promise.all(
      TEMPLATES.map(async (entry) => {
        const document = (await this.#document(entry)) as { name?: unknown; format?: unknown; nodes?: unknown };
        return {
          id: entry.id,
          name: typeof document.name === "string" ? document.name : entry.id,
          description: entry.description,
          format: typeof document.format === "string" ? document.format : "",
          nodeCount: Array.isArray(document.nodes) ? document.nodes.length : 0,
          knowledgeBases: knowledgeBasesNamed(document),
        };
      }),
    );
  }

  /** Creates the template's workflow (and its missing knowledge bases); answers the new workflow's id. */
  async create(templateId: string): Promise<Outcome<string>> {
    const entry = TEMPLATES.find((candidate) => candidate.id === templateId);
    if (!entry) return failure(notFoundError("template", templateId, ["templateId"]));
    const document = await this.#document(entry);
    for (const name of knowledgeBasesNamed(document)) {
      const ready = await this.#ensureKnowledgeBase(name);
      if (!ready.ok) return ready;
    }
    return this.deps.workflows.documents.import(document);
  }

  /** Read once per process: the files ship with the server and do not change while it runs. */
  #document(entry: TemplateEntry): Promise<unknown> {
    let pending = this.#documents.get(entry.id);
    if (!pending) {
      pending = entry.source.kind === "demo" ? Promise.resolve(serializeWorkflow(this.deps.demo())) : readFile(path.join(this.#dir, entry.source.file), "utf8").then((text) => JSON.parse(text) as unknown);
      this.#documents.set(entry.id, pending);
    }
    return pending;
  }

  async #ensureKnowledgeBase(name: string): Promise<Outcome<void>> {
    if (await this.deps.knowledgeBases.find({ name })) return success(undefined);
    const folder = knowledgeBaseFolder(this.#dir, name);
    const files = await markdownFiles(folder);
    // A knowledge base the template names but does not ship: the run's retrieval will say it is missing.
    if (files.length === 0) return success(undefined);
    const created = await this.deps.knowledgeBases.create({ name, description: `Made from examples/knowledge-bases/${name} for a template.` });
    if (!created.ok) {
      // Made meanwhile by a concurrent request: use that one.
      if (await this.deps.knowledgeBases.find({ name })) return success(undefined);
      return created;
    }
    const documents = await Promise.all(files.map(async (file) => ({ title: path.basename(file, ".md"), content: await readFile(file, "utf8"), mimeType: "text/markdown" })));
    const added = await this.deps.knowledgeBases.documents.add(created.value.id, documents, { waitForIndexing: true });
    if (!added.ok) return added;
    this.deps.logger.info({ knowledgeBase: name, documents: documents.length }, "created a template's knowledge base");
    return success(undefined);
  }
}

async function markdownFiles(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
      .map((entry) => path.join(folder, entry.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
