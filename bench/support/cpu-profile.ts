/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time per function, total (inclusive) time
 * of the gateway's own functions, and self time per area (a src/ folder, a package, Node itself).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface TimeShare {
  readonly name: string;
  readonly ms: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Time the main thread had nothing to do: waiting for sockets and the database. */
  readonly idlePercent: number;
  readonly topSelf: readonly TimeShare[];
  readonly topGatewayInclusive: readonly TimeShare[];
  readonly areas: readonly TimeShare[];
}

const ROOT_MARKER = '/work/main/';

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (packageMatch) return `${packageMatch[1]}/${packageMatch[2]}`;
  const rootIndex = path.indexOf('/src/') >= 0 ? path.lastIndexOf('/src/') + 1 : path.indexOf(ROOT_MARKER) >= 0 ? path.indexOf(ROOT_MARKER) + ROOT_MARKER.length : 0;
  return path.slice(rootIndex);
}

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (!url) return functionName || '(anonymous)';
  return `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
}

/** The gateway's own code: src/ under tsx, dist/ (its build, same tree) as npm start runs it. */
const GATEWAY_CODE = /\/(src|dist)\/([^/]+)/;

/** src/http, src/catalogue …, a package name, Node's own code, or V8's pseudo-frames. */
function areaOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const srcMatch = GATEWAY_CODE.exec(url);
  if (srcMatch) return `src/${srcMatch[2]!.replace(/\.[tj]s$/, '')}`;
  return 'other';
}

function ranked(totals: Map<string, number>, totalMs: number, count: number): TimeShare[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms: Math.round(ms), percent: Math.round((1000 * ms) / totalMs) / 10 }));
}

const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);

/** CLOCK_MONOTONIC in microseconds: the clock V8 stamps profiles with, the same in every process. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * window: only samples taken between these monotonicMicros() readings count, so the start-up
 * (tsx compiling, migrations) and the warm-up stay out of the summary.
 */
export function summariseProfile(path: string, window?: { fromUs: number; toUs: number }, count = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const gatewayInclusive = new Map<string, number>();
  let totalMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((nodeId, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(nodeId);
    if (!node) return;
    totalMs += ms;
    add(self, functionKey(node), ms);
    add(areas, areaOf(node), ms);
    // Count each gateway function once per sample, however deep it recurses.
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!;
      if (!GATEWAY_CODE.test(frame.callFrame.url) || frame.callFrame.url.includes('node_modules')) continue;
      const key = functionKey(frame);
      if (!seen.has(key)) { seen.add(key); add(gatewayInclusive, key, ms); }
    }
  });
  return {
    totalMs: Math.round(totalMs),
    idlePercent: Math.round((1000 * (areas.get('(idle)') ?? 0)) / totalMs) / 10,
    topSelf: ranked(self, totalMs, count),
    topGatewayInclusive: ranked(gatewayInclusive, totalMs, count),
    areas: ranked(areas, totalMs, count),
  };
}

export function describeProfile(summary: ProfileSummary): string {
  const lines = (title: string, shares: readonly TimeShare[]) =>
    [`  ${title}`, ...shares.map((s) => `    ${s.percent.toFixed(1).padStart(5)} %  ${String(s.ms).padStart(6)} ms  ${s.name}`)].join('\n');
  return [
    `CPU profile of the gateway during the DB phase: ${summary.totalMs} ms sampled, ${summary.idlePercent} % idle`,
    lines('self time by area', summary.areas),
    lines('self time by function', summary.topSelf),
    lines('total time of the gateway\'s own functions (callees included)', summary.topGatewayInclusive),
  ].join('\n');
}
