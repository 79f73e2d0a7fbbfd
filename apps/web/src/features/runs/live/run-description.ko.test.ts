import { describe, expect, it } from "vitest";
import { koreanRunDescription } from "./run-description.ko";

describe("koreanRunDescription", () => {
  it("translates the engine's own sentences, keeping their numbers, ports and names", () => {
    expect(koreanRunDescription("rendered 26 characters")).toBe("26자를 만들었습니다");
    expect(koreanRunDescription('took "yes", "maybe"')).toBe('"yes", "maybe" 포트로 보냄');
    expect(koreanRunDescription("retry (score 0.3): name the effect")).toBe("retry (점수 0.3): name the effect");
    expect(koreanRunDescription("3 chunks from rag-handbook (2 queries, pgvector; 1 under 0.5 dropped)")).toBe("rag-handbook에서 청크 3개 (쿼리 2개, pgvector; 0.5 미만 1개 버림)");
    expect(koreanRunDescription("joined 2 inputs (a, b)")).toBe("입력 2개를 합쳤습니다 (a, b)");
    expect(koreanRunDescription("1 earlier message of the thread")).toBe("대화의 이전 메시지 1개");
    expect(koreanRunDescription("answered in 2 steps with 1 tool call: 14 characters")).toBe("2단계, 도구 호출 1건으로 답했습니다: 14자");
    expect(koreanRunDescription("Shout_a_city answered")).toBe("Shout_a_city 도구가 답했습니다");
    expect(koreanRunDescription("search_docs answered: 120 characters")).toBe("search_docs 도구가 답했습니다: 120자");
  });

  it("leaves a model's own words as they are", () => {
    expect(koreanRunDescription("The answer mentions Rayleigh scattering.")).toBe("The answer mentions Rayleigh scattering.");
  });
});
