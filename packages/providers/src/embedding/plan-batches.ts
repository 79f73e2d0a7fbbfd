/** Groups texts into batches bounded by count and total length; a single over-long text goes alone. */
export function planBatches(texts: readonly string[], batchSize: number, maxBatchChars: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= batchSize || chars + text.length > maxBatchChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
