/**
 * Turns text into weighted lexical features for the local embedder. Words give unigrams and bigrams;
 * character n-grams make the vectors tolerant of inflection. Korean attaches particles and endings to
 * the stem (워크플로우는, 워크플로우를), so for Hangul (and other scripts written without spaces between
 * morphemes) syllable 2- and 3-grams carry most of the signal.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const SPACELESS_SCRIPT = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Very frequent English function words: kept, but weighted down so they do not dominate similarity. */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can do does for from had has have he her his i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this to was we were " +
    "what when which who will with you your"
  ).split(" "),
);

export interface FeatureWeights {
  word: number;
  stopword: number;
  bigram: number;
  latinCharGram: number;
  spacelessCharGram: number;
}

export const DEFAULT_FEATURE_WEIGHTS: FeatureWeights = {
  word: 1,
  stopword: 0.15,
  bigram: 0.6,
  latinCharGram: 0.25,
  spacelessCharGram: 0.6,
};

export function normaliseText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

export function tokenise(text: string): string[] {
  return normaliseText(text).match(WORD) ?? [];
}

type Sink = (feature: string, weight: number) => void;

function addCharGrams(word: string, sizes: readonly number[], weight: number, sink: Sink): void {
  for (const n of sizes) {
    if (word.length < n) continue;
    for (let i = 0; i + n <= word.length; i++) sink("c" + word.slice(i, i + n), weight);
  }
}

function addWordFeatures(word: string, weights: FeatureWeights, sink: Sink): void {
  if (SPACELESS_SCRIPT.test(word)) {
    sink("w" + word, weights.word * 0.5);
    if (word.length === 1) sink("c" + word, weights.spacelessCharGram);
    addCharGrams(word, [2, 3], weights.spacelessCharGram, sink);
    return;
  }
  const stop = STOPWORDS.has(word);
  sink("w" + word, stop ? weights.stopword : weights.word);
  if (!stop && word.length >= 4) addCharGrams(`<${word}>`, [3], weights.latinCharGram, sink);
}

/** Calls `sink` once per feature occurrence; the caller decides how repeated features add up. */
export function extractFeatures(text: string, sink: Sink, weights: FeatureWeights = DEFAULT_FEATURE_WEIGHTS): void {
  const words = tokenise(text);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    addWordFeatures(word, weights, sink);
    const next = words[i + 1];
    if (next !== undefined && !(STOPWORDS.has(word) && STOPWORDS.has(next))) {
      sink("b" + word + " " + next, weights.bigram);
    }
  }
}
