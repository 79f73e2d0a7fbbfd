import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalEmbedder } from "@weft/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderKnowledgeBases } from "./folder-knowledge-bases.js";

const live = () => new AbortController().signal;
const embedder = new LocalEmbedder();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "weft-folder-kb-"));
  await mkdir(join(dir, "knowledge-bases", "garden"), { recursive: true });
  await writeFile(join(dir, "knowledge-bases", "garden", "tomatoes.md"), "# Tomatoes\n\nWater tomatoes deeply twice a week and stake the stems.");
  await writeFile(join(dir, "knowledge-bases", "garden", "roses.txt"), "Prune roses in late winter, just above an outward-facing bud.");
  await writeFile(join(dir, "knowledge-bases", "garden", "photo.png"), "not text");
  await mkdir(join(dir, "elsewhere"));
  await writeFile(join(dir, "elsewhere", "bees.md"), "Bees visit blue and purple flowers most.");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("folder knowledge bases", () => {
  const bases = () => new FolderKnowledgeBases({ workflowFile: join(dir, "flow.json"), folders: new Map([["bees", join(dir, "elsewhere")]]), embedder });

  it("find a name's folder beside the workflow file, read its Markdown and text files, and search them", async () => {
    const result = await bases().search("garden", { queries: ["when should I prune roses"], topK: 1 }, live());
    expect(result.store).toBe("memory");
    expect(result.chunks).toEqual([expect.objectContaining({ id: "roses.txt#0", source: { documentId: "roses.txt", title: "roses", chunkIndex: 0, page: null } })]);
  });

  it("take a folder given on the command line first, and look neighbours up by position", async () => {
    const kb = bases();
    expect((await kb.search("bees", { queries: ["flowers"], topK: 3 }, live())).chunks.map((chunk) => chunk.id)).toEqual(["bees.md#0"]);
    expect((await kb.neighbours("garden", [{ documentId: "tomatoes.md", chunkIndex: 0 }], 1, live())).chunks.map((chunk) => chunk.id)).toEqual(["tomatoes.md#0"]);
  });

  it("refuse a name without a folder with KNOWLEDGE_BASE_NOT_FOUND, and never read outside knowledge-bases/", async () => {
    await expect(bases().search("orchard", { queries: ["apples"], topK: 1 }, live())).rejects.toMatchObject({
      code: "KNOWLEDGE_BASE_NOT_FOUND",
      message: expect.stringContaining("--knowledge-base orchard=DIR"),
    });
    expect(bases().folderOf("../elsewhere")).toBeNull();
    expect(bases().folderOf("..")).toBeNull();
  });
});
