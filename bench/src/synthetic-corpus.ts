/**
 * Seeded, topical text for the retrieval benchmarks. Real documents cluster by topic: a chunk about
 * retries shares words with other chunks about retries. Each generated chunk draws most of its words
 * from one of `topics` topic vocabularies (a skewed pick, so a few words dominate, as in real text),
 * some from common function words and some from the whole vocabulary. A fifth of the vocabulary is
 * Hangul, so Korean character n-grams are exercised too.
 */
import { seededRandom } from "@weft/engine";

const LATIN_SYLLABLES = "ba be bi bo bu ca co da de di do fa fe fi ga ge go ka ke ki ko la le li lo lu ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa za zo".split(" ");
const COMMON = "the a of and to in is that for it with as on be by this are from or at which not but".split(" ");

function makeWord(random: () => number, korean: boolean): string {
  if (korean) {
    const length = 2 + Math.floor(random() * 3);
    return Array.from({ length }, () => String.fromCharCode(0xac00 + Math.floor(random() * 11172))).join("");
  }
  const length = 2 + Math.floor(random() * 3);
  return Array.from({ length }, () => LATIN_SYLLABLES[Math.floor(random() * LATIN_SYLLABLES.length)]).join("");
}

export interface CorpusOptions {
  seed?: number;
  topics?: number;
  vocabulary?: number;
  wordsPerTopic?: number;
}

export class SyntheticCorpus {
  private readonly random: () => number;
  private readonly vocabulary: string[];
  private readonly topicWords: string[][];

  constructor(options: CorpusOptions = {}) {
    this.random = seededRandom(options.seed ?? 42);
    const size = options.vocabulary ?? 6000;
    this.vocabulary = Array.from({ length: size }, (_, i) => makeWord(this.random, i % 5 === 0));
    this.topicWords = Array.from({ length: options.topics ?? 200 }, () =>
      Array.from({ length: options.wordsPerTopic ?? 60 }, () => this.pick(this.vocabulary)),
    );
  }

  get topicCount(): number {
    return this.topicWords.length;
  }

  private pick<T>(list: readonly T[], skew = 1): T {
    return list[Math.floor(list.length * this.random() ** skew)] as T;
  }

  private word(topic: readonly string[]): string {
    const r = this.random();
    if (r < 0.6) return this.pick(topic, 2);
    if (r < 0.85) return this.pick(COMMON);
    return this.pick(this.vocabulary);
  }

  /** About `words` words in sentences of 8–15 words, about one topic. */
  passage(topicIndex: number, words: number): string {
    const topic = this.topicWords[topicIndex % this.topicWords.length] as string[];
    const sentences: string[] = [];
    let count = 0;
    while (count < words) {
      const length = 8 + Math.floor(this.random() * 8);
      const sentence = Array.from({ length }, () => this.word(topic)).join(" ");
      sentences.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
      count += length;
    }
    return sentences.join(" ");
  }

  /** A document of `paragraphs` paragraphs drifting across a few neighbouring topics. */
  document(topicIndex: number, paragraphs: number): string {
    return Array.from({ length: paragraphs }, (_, i) => this.passage(topicIndex + Math.floor(i / 4), 70)).join("\n\n");
  }

  randomTopic(): number {
    return Math.floor(this.random() * this.topicWords.length);
  }
}
