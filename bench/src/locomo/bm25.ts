/**
 * Plain Okapi BM25, the reference the Cairn figures are read against:
 * lowercase alphanumeric tokens, a common English stop list, k1 1.2, b 0.75,
 * idf = ln(1 + (N - df + 0.5) / (df + 0.5)).
 */

export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being
  below between both but by can could did do does doing down during each few for from further had
  has have having he her here hers herself him himself his how i if in into is it its itself just
  me more most my myself no nor not now of off on once only or other our ours ourselves out over
  own same she should so some such than that the their theirs them themselves then there these
  they this those through to too under until up very was we were what when where which while who
  whom why will with would you your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

export function tokenize(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word));
}

export interface Bm25Document {
  id: string;
  text: string;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface Bm25Index {
  search(query: string, limit: number): Bm25Hit[];
}

export function createBm25Index(
  documents: readonly Bm25Document[],
  options: Bm25Options = {},
): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const termFrequencies = documents.map((document) => {
    const counts = new Map<string, number>();
    for (const token of tokenize(document.text)) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  });
  const lengths = documents.map((document) => tokenize(document.text).length);
  const averageLength =
    lengths.reduce((sum, length) => sum + length, 0) / Math.max(documents.length, 1);
  const postings = new Map<string, number[]>();
  termFrequencies.forEach((counts, doc) => {
    for (const term of counts.keys()) {
      const list = postings.get(term) ?? [];
      list.push(doc);
      postings.set(term, list);
    }
  });
  const idf = (term: string) => {
    const df = postings.get(term)?.length ?? 0;
    return Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
  };

  return {
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(tokenize(query))) {
        const weight = idf(term);
        for (const doc of postings.get(term) ?? []) {
          const tf = termFrequencies[doc]!.get(term)!;
          const norm = tf + k1 * (1 - b + (b * lengths[doc]!) / (averageLength || 1));
          scores.set(doc, (scores.get(doc) ?? 0) + (weight * tf * (k1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, limit)
        .map(([doc, score]) => ({ id: documents[doc]!.id, score }));
    },
  };
}
