/** One call's span, in milliseconds on one clock. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The longest chain of spans each starting once the one before it has ended: the calls that waited
 * on each other. Taking, by earliest end, each span that starts after the chain's last end gives a
 * longest such chain (the greedy choice of interval scheduling); spans that overlap it ran beside it.
 */
export function longestChain<T extends Span>(spans: T[]): T[] {
  const chain: T[] = [];
  let end = -Infinity;
  for (const span of [...spans].sort((a, b) => a.end - b.end)) {
    if (span.start < end) continue;
    chain.push(span);
    end = span.end;
  }
  return chain;
}
