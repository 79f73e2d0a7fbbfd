import { describe, expect, it } from "vitest";
import { fitsInOneRequest, formatOfFile } from "./dataset-file";

describe("a dataset file to import", () => {
  it("is JSONL or CSV by its name's ending, else the user says", () => {
    expect(formatOfFile("cases.jsonl")).toBe("JSONL");
    expect(formatOfFile("CASES.NDJSON")).toBe("JSONL");
    expect(formatOfFile("cases.csv")).toBe("CSV");
    expect(formatOfFile("cases.txt")).toBeNull();
  });

  it("fits in one request when it leaves room under the server's body limit", () => {
    expect(fitsInOneRequest(1_000, 1_048_576)).toBe(true);
    expect(fitsInOneRequest(1_048_000, 1_048_576)).toBe(false);
  });
});
