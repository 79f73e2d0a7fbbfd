/**
 * Korean for the descriptions the engine's node types give their runs ("rendered 26 characters",
 * `took "yes"`), one pattern each, anchored and linear (no user input reaches these expressions: they
 * only read the engine's own sentences). A description no pattern knows (a model's own words) is shown
 * as it is.
 */
const PATTERNS: readonly [RegExp, (match: RegExpExecArray) => string][] = [
  [/^rendered JSON$/, () => "JSON을 만들었습니다"],
  [/^rendered (\d+) characters$/, (m) => `${m[1]}자를 만들었습니다`],
  [/^a reply that matches the node's schema$/, () => "노드의 스키마에 맞는 답"],
  [/^a reply of (\d+) characters$/, (m) => `${m[1]}자 답`],
  [/^a cached reply \(similarity ([\d.]+)\)$/, (m) => `캐시된 답 (유사도 ${m[1]})`],
  [/^took (.+)$/, (m) => `${m[1]} 포트로 보냄`],
  [/^classified as "(.+)"$/, (m) => `"${m[1]}"(으)로 분류`],
  [/^(pass|retry|fail) \(score ([\d.]+)\)(?:: (.*))?$/s, (m) => `${m[1]} (점수 ${m[2]})${m[3] ? `: ${m[3]}` : ""}`],
  [/^joined (\d+) inputs?(?: \((.*)\))?$/, (m) => `입력 ${m[1]}개를 합쳤습니다${m[2] ? ` (${m[2]})` : ""}`],
  [/^ran its body$/, () => "본문을 실행했습니다"],
  [/^(\d+) of (\d+) items(?:; (\d+) skipped)?$/, (m) => `항목 ${m[2]}개 중 ${m[1]}개${m[3] ? `; ${m[3]}개 건너뜀` : ""}`],
  [/^no query: nothing searched$/, () => "쿼리가 없어 검색하지 않았습니다"],
  [/^(\d+) pages from (.+)$/, (m) => `${m[2]}에서 페이지 ${m[1]}개`],
  [/^(\d+) chunks from (.+?) \((.*)\)$/s, (m) => `${m[2]}에서 청크 ${m[1]}개 (${(m[3] ?? "").replace(/\b(\d+) quer(?:y|ies)\b/, "쿼리 $1개").replace(/; (\d+) under ([\d.]+) dropped/, "; $2 미만 $1개 버림")})`],
  [/^(\d+) chunks and (\d+) neighbours \(window (\d+)\)$/, (m) => `청크 ${m[1]}개와 이웃 ${m[2]}개 (window ${m[3]})`],
  [/^nothing to rerank$/, () => "재정렬할 청크가 없습니다"],
  [/^the (\d+) most relevant of (\d+) chunks$/, (m) => `청크 ${m[2]}개 중 가장 관련 있는 ${m[1]}개`],
  [/^cache hit \(similarity ([\d.]+)\)$/, (m) => `캐시 적중 (유사도 ${m[1]})`],
  [/^cache miss$/, () => "캐시에 없음"],
  [/^not stored: no cache service$/, () => "저장하지 않음: 캐시 서비스가 없습니다"],
  [/^not stored: empty question$/, () => "저장하지 않음: 질문이 비어 있습니다"],
  [/^(\d+) earlier messages? of the thread$/, (m) => `대화의 이전 메시지 ${m[1]}개`],
  [/^passed$/, () => "통과"],
  [/^blocked: (.*)$/s, (m) => `차단됨: ${m[1]}`],
  [/^answered in (\d+) steps? with (\d+) tool calls?: (\d+) characters$/, (m) => `${m[1]}단계, 도구 호출 ${m[2]}건으로 답했습니다: ${m[3]}자`],
  [/^([\w-]{1,64}) answered: (\d+) characters$/, (m) => `${m[1]} 도구가 답했습니다: ${m[2]}자`],
  [/^([\w-]{1,64}) answered$/, (m) => `${m[1]} 도구가 답했습니다`],
];

/** Longer descriptions are a model's own words, not one of the engine's sentences. */
const MAX_PATTERN_INPUT = 500;

export function koreanRunDescription(description: string): string {
  if (description.length > MAX_PATTERN_INPUT) return description;
  for (const [pattern, korean] of PATTERNS) {
    const match = pattern.exec(description);
    if (match) return korean(match);
  }
  return description;
}

/** A run description in the UI's language (the engine writes English). */
export function runDescriptionIn(language: string, description: string): string {
  return language === "ko" ? koreanRunDescription(description) : description;
}
