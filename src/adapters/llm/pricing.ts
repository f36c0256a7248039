// What a suggestion cost: the endpoint's own figure when it reports one, else list prices (USD per million tokens)
// of a few well-known models, else unknown. Prices change; the record says where the figure came from.

const PRICES: Array<{ prefix: string; input: number; output: number }> = [
  { prefix: 'gpt-4o-mini', input: 0.15, output: 0.6 },
  { prefix: 'gpt-4o', input: 2.5, output: 10 },
  { prefix: 'gpt-4.1-nano', input: 0.1, output: 0.4 },
  { prefix: 'gpt-4.1-mini', input: 0.4, output: 1.6 },
  { prefix: 'gpt-4.1', input: 2, output: 8 },
  { prefix: 'gpt-5-nano', input: 0.05, output: 0.4 },
  { prefix: 'gpt-5-mini', input: 0.25, output: 2 },
  { prefix: 'gpt-5', input: 1.25, output: 10 },
  { prefix: 'o4-mini', input: 1.1, output: 4.4 },
  { prefix: 'o3', input: 2, output: 8 },
];

export interface Cost {
  usd?: number;
  source: 'endpoint' | 'price-table' | 'unknown';
}

export function costOf(model: string, usage: { promptTokens: number; completionTokens: number; costUsd?: number } | undefined): Cost {
  if (!usage) return { source: 'unknown' };
  if (usage.costUsd !== undefined) return { usd: usage.costUsd, source: 'endpoint' };
  // Longest prefix first: "gpt-4o-mini" before "gpt-4o".
  const name = model.toLowerCase().replace(/^.*\//, '');
  const p = [...PRICES].sort((a, b) => b.prefix.length - a.prefix.length).find((x) => name.startsWith(x.prefix));
  if (!p) return { source: 'unknown' };
  const usd = (usage.promptTokens * p.input + usage.completionTokens * p.output) / 1_000_000;
  return { usd: Math.round(usd * 1e6) / 1e6, source: 'price-table' };
}
