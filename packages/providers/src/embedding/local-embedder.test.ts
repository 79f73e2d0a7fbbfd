import { describe, expect, it } from "vitest";
import { LocalEmbedder, LOCAL_EMBEDDER_MODEL } from "./local-embedder.js";

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

function norm(v: readonly number[]): number {
  return Math.sqrt(cosine(v, v));
}

const embedder = new LocalEmbedder();
const embed = (text: string) => embedder.embedOne(text);

describe("LocalEmbedder", () => {
  it("returns the same vector for the same text, across instances", async () => {
    const text = "Knowledge bases hold documents split into chunks.";
    const [first] = await embedder.embed([text]);
    const [second] = await new LocalEmbedder().embed([text]);
    expect(first).toEqual(second);
  });

  it("produces unit-length vectors of the configured dimension", () => {
    for (const text of ["hello world", "워크플로우 실행 엔진", "a"]) {
      const vector = embed(text);
      expect(vector).toHaveLength(512);
      expect(norm(vector)).toBeCloseTo(1, 10);
    }
  });

  it("returns a zero vector for text without words", () => {
    expect(norm(embed("  ... !!! "))).toBe(0);
  });

  it("treats Unicode compatibility forms and case as the same text", () => {
    expect(embed("ＷＥＦＴ Engine")).toEqual(embed("weft engine"));
  });

  it("places related English texts closer than unrelated ones", () => {
    const query = embed("How are retries with backoff handled for rate limits?");
    const related = embed("Transient provider errors such as rate limits are retried with exponential backoff.");
    const unrelated = embed("The admin UI shows the workflow graph in an editor with drag and drop.");
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.1);
  });

  it("matches Korean words despite attached particles", () => {
    const query = embed("워크플로우의 상태 전이");
    const related = embed("워크플로우는 상태를 전이하며 노드를 실행한다.");
    const unrelated = embed("데이터베이스 연결 풀의 크기를 설정합니다.");
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.1);
  });

  it("names its model after the dimension when not the default", () => {
    expect(embedder.model).toBe(LOCAL_EMBEDDER_MODEL);
    const small = new LocalEmbedder({ dimension: 256 });
    expect(small.model).toBe(`${LOCAL_EMBEDDER_MODEL}-256`);
    expect(small.embedOne("x y z")).toHaveLength(256);
  });

  it("refuses an unusable dimension with a stable code", () => {
    expect(() => new LocalEmbedder({ dimension: 3 })).toThrow(expect.objectContaining({ code: "INVALID_EMBEDDER_CONFIG" }));
  });

  it("stops when the signal is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(["text"], controller.signal)).rejects.toThrow();
  });
});
