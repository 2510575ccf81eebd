import type { CairnSettings } from '@cairn/core';
import { estimateTokenCount } from '../packs';
import { chatCompletionsUrl, postChatCompletion } from '../summaries';
import type { Insight } from './extract-insights';
import { clipLine } from './maintenance-files';

/**
 * Insights from an OpenAI-compatible model, when the summarizer is one
 * (`summarizer.provider: openai`, which only a trusted layer can set: see
 * docs/SECURITY.md). One request per run under a hard token budget: the
 * prompt is cut to fit before sending, `max_tokens` caps the answer, and
 * the reply's usage is recorded in the audit. The model sees only the
 * extractive insights and their evidence ids, and an insight it returns
 * is kept only when every id it cites is one of those: it can rephrase
 * and connect, not invent evidence. Any failure leaves the run extractive.
 */

/** Tokens one run may spend on the model, prompt and answer together. */
export const MODEL_TOKEN_BUDGET = 4000;
const ANSWER_TOKENS = 600;
const MAX_MODEL_INSIGHTS = 5;

export interface ModelInsights {
  insights: Insight[];
  usage?: { name: string; promptTokens: number; completionTokens: number; budgetTokens: number };
  note?: string;
}

const INSTRUCTIONS =
  'You maintain a software project memory. From the findings below, write at most 5 short insights a developer should know ' +
  '(patterns across findings, risks, what to do next). Answer with JSON only: {"insights":[{"text":"...","evidence":["<ids>"]}]}. ' +
  'Cite only evidence ids that appear in the findings; never invent ids.';

function promptWithin(
  findings: readonly Insight[],
  budget: number,
): { text: string; ids: Set<string> } {
  const ids = new Set<string>();
  const lines: string[] = [];
  let tokens = estimateTokenCount(INSTRUCTIONS);
  for (const finding of findings) {
    const line = `- ${clipLine(finding.text, 240)} [evidence: ${finding.evidence.join(', ')}]`;
    const cost = estimateTokenCount(line) + 1;
    if (tokens + cost > budget) break;
    tokens += cost;
    lines.push(line);
    for (const id of finding.evidence) ids.add(id);
  }
  return { text: lines.join('\n'), ids };
}

function parseAnswer(content: string, allowed: Set<string>, model: string): Insight[] {
  const json = content.slice(content.indexOf('{'), content.lastIndexOf('}') + 1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const list = (parsed as { insights?: unknown }).insights;
  if (!Array.isArray(list)) return [];
  return list
    .filter(
      (item): item is { text: string; evidence: string[] } =>
        typeof item?.text === 'string' &&
        Array.isArray(item.evidence) &&
        item.evidence.length > 0 &&
        item.evidence.every((id: unknown) => typeof id === 'string' && allowed.has(id)),
    )
    .slice(0, MAX_MODEL_INSIGHTS)
    .map((item, i) => ({
      key: `model ${i}`,
      topic: 'memory' as const,
      text: `${clipLine(item.text, 240)} (model ${model})`,
      evidence: item.evidence,
    }));
}

type Usage = { prompt_tokens?: number; completion_tokens?: number };

export async function modelInsights(
  settings: CairnSettings,
  findings: readonly Insight[],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<ModelInsights> {
  const { provider, baseUrl, model, apiKeyEnv } = settings.summarizer;
  if (provider !== 'openai' || !baseUrl || !model) return { insights: [] };
  if (findings.length === 0) return { insights: [], note: 'nothing to ask the model about' };
  const apiKey = apiKeyEnv ? env[apiKeyEnv]?.trim() : undefined;
  if (apiKeyEnv && !apiKey) return { insights: [], note: `no model: ${apiKeyEnv} is not set` };
  const prompt = promptWithin(findings, MODEL_TOKEN_BUDGET - ANSWER_TOKENS);
  try {
    const reply = (await postChatCompletion(
      {
        url: chatCompletionsUrl(baseUrl),
        model,
        ...(apiKey ? { apiKey } : {}),
        timeoutMs: 30_000,
        maxRetries: 1,
        retryDelayMs: 500,
        fetch: fetchImpl,
      },
      {
        model,
        stream: false,
        max_tokens: ANSWER_TOKENS,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: prompt.text },
        ],
      },
    )) as { choices?: { message?: { content?: string } }[]; usage?: Usage };
    const content = reply.choices?.[0]?.message?.content ?? '';
    const promptTokens =
      reply.usage?.prompt_tokens ?? estimateTokenCount(`${INSTRUCTIONS}\n${prompt.text}`);
    const completionTokens = reply.usage?.completion_tokens ?? estimateTokenCount(content);
    const usage = { name: model, promptTokens, completionTokens, budgetTokens: MODEL_TOKEN_BUDGET };
    const over = promptTokens + completionTokens > MODEL_TOKEN_BUDGET;
    return {
      // A reply past the budget (a server that ignored max_tokens) is not used.
      insights: over ? [] : parseAnswer(content, prompt.ids, model),
      usage,
      ...(over ? { note: 'the model answer went past the token budget; not used' } : {}),
    };
  } catch (error) {
    return {
      insights: [],
      note: `model failed, the run stayed extractive: ${(error as Error).message.slice(0, 200)}`,
    };
  }
}
