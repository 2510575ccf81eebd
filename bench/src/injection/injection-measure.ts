import { estimateTokenCount } from '@cairn/engine/internals';
import type { LabelledRequest, Part } from './injection-dataset';
import { injectedItems, markupArtifacts, repeatedTokenShare } from './injection-metrics';

/** What one injection scored against its labels. */
export interface RequestScore {
  part: Part;
  answered: boolean;
  /** Tokens of the injected items that are not pinned heads, and of those labelled. */
  itemTokens: number;
  labelledTokens: number;
  /** Tokens of the pinned heads (reported apart, never in precision). */
  headTokens: number;
  labelled: number;
  found: number;
  repeated: number;
  repeatTotal: number;
  artifacts: string[];
  /** Tokens left unused while a labelled item that would have fit was left out. */
  unusedWhileMissing: number;
}

/** A topic's items as a pack names them: its unit, and its section (`document path#heading`). */
export interface TopicItems {
  unit: string;
  unitTokens: number;
  document?: string;
  documentTokens?: number;
}

/** Labelled item label overhead in a rendered pack (its `- [trust · provenance]`), in tokens. */
const LABEL_TOKENS = 30;

export function scoreInjection(
  text: string,
  request: LabelledRequest,
  topics: ReadonlyMap<string, TopicItems>,
  budget: number,
): RequestScore {
  const items = injectedItems(text);
  const wanted = new Map<string, number>();
  for (const key of request.topics) {
    const topic = topics.get(key);
    if (!topic) continue;
    wanted.set(topic.unit, topic.unitTokens);
    if (topic.document) wanted.set(topic.document, topic.documentTokens ?? 0);
  }
  const heads = items.filter((item) => item.kind === 'head');
  const others = items.filter((item) => item.kind !== 'head');
  const labelledItems = others.filter((item) => wanted.has(item.provenance));
  const found = new Set(labelledItems.map((item) => item.provenance));
  const used = text ? estimateTokenCount(text) : 0;
  let unusedWhileMissing = 0;
  for (const [name, tokens] of wanted) {
    if (found.has(name)) continue;
    const left = budget - used;
    if (left >= tokens + LABEL_TOKENS) unusedWhileMissing = Math.max(unusedWhileMissing, left);
  }
  const repeats = repeatedTokenShare(text);
  return {
    part: request.part,
    answered: request.topics.length > 0,
    itemTokens: others.reduce((sum, item) => sum + item.tokens, 0),
    labelledTokens: labelledItems.reduce((sum, item) => sum + item.tokens, 0),
    headTokens: heads.reduce((sum, item) => sum + item.tokens, 0),
    labelled: wanted.size,
    found: found.size,
    repeated: repeats.repeated,
    repeatTotal: repeats.total,
    artifacts: markupArtifacts(text),
    unusedWhileMissing,
  };
}

/** The figures of one profile over one part of the requests. */
export interface ProfileFigures {
  requests: number;
  answered: number;
  /** Labelled tokens over item tokens, over the requests that injected any item. */
  precision: number;
  recall: number;
  /** Items' tokens (heads not counted) injected for requests nothing answers: mean and max. */
  unansweredMean: number;
  unansweredMax: number;
  repeatedShare: number;
  artifacts: number;
  firstArtifact?: string;
  unusedBudgetCases: number;
  headTokensMean: number;
}

export function summarize(scores: readonly RequestScore[]): ProfileFigures {
  const answered = scores.filter((s) => s.answered);
  const unanswered = scores.filter((s) => !s.answered);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const itemTokens = sum(answered.map((s) => s.itemTokens));
  const unansweredTokens = unanswered.map((s) => s.itemTokens);
  const artifacts = scores.flatMap((s) => s.artifacts);
  const repeatTotal = sum(scores.map((s) => s.repeatTotal));
  return {
    requests: scores.length,
    answered: answered.length,
    precision: itemTokens ? sum(answered.map((s) => s.labelledTokens)) / itemTokens : 1,
    recall: sum(answered.map((s) => s.labelled))
      ? sum(answered.map((s) => s.found)) / sum(answered.map((s) => s.labelled))
      : 1,
    unansweredMean: unanswered.length ? sum(unansweredTokens) / unanswered.length : 0,
    unansweredMax: Math.max(0, ...unansweredTokens),
    repeatedShare: repeatTotal ? sum(scores.map((s) => s.repeated)) / repeatTotal : 0,
    artifacts: artifacts.length,
    ...(artifacts[0] ? { firstArtifact: artifacts[0] } : {}),
    unusedBudgetCases: scores.filter((s) => s.unusedWhileMissing > 0).length,
    headTokensMean: scores.length ? sum(scores.map((s) => s.headTokens)) / scores.length : 0,
  };
}
