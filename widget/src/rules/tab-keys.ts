/** The keys of the WAI-ARIA tabs pattern (wpwlOptions.layout 'tabs'). */

/** The tab a key moves to (in right-to-left text the arrows swap), or undefined for other keys. */
export function keyTarget(key: string, current: number, count: number, rtl: boolean): number | undefined {
  const step: Record<string, number> = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 };
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (step[key] === undefined || current < 0) return undefined;
  return (current + step[key]! + count) % count;
}
