import cluster from 'node:cluster';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/**
 * One scrape sees the whole node: with GATEWAY_PROCESSES > 1 a connection reaches any one of the
 * processes, so the process that serves /metrics asks the cluster's primary, which asks every
 * process for its metrics (as JSON, over the cluster's IPC channel), adds its own (restarts) and
 * answers the aggregate (prom-client's AggregatorRegistry: each metric by its `aggregate` rule).
 */
const ASK_PRIMARY = 'gateway:node-metrics';
const ASK_PROCESS = 'gateway:process-metrics';
const ANSWER = 'gateway:metrics-answer';
/** A process that does not answer within this is left out of the scrape rather than failing it. */
const PROCESS_ANSWER_MS = 3_000;

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];
interface Message { readonly type: string; readonly id: number; readonly text?: string; readonly metrics?: MetricsJson }

let nextId = 0;

/** In a cluster process: answer the primary's requests with this registry. */
export function answerPrimaryWith(registry: Registry): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: Message) => {
    if (message?.type !== ASK_PROCESS) return;
    void registry.getMetricsAsJSON().then((metrics) => process.send?.({ type: ANSWER, id: message.id, metrics }));
  });
}

/** In a cluster process: the node's metrics, through the primary. */
export function nodeMetricsText(timeoutMs = 2 * PROCESS_ANSWER_MS): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the cluster primary did not answer with the node\'s metrics')), timeoutMs);
    const listener = (message: Message) => {
      if (message?.type === ANSWER && message.id === id) finish(undefined, message.text ?? '');
    };
    const finish = (error: Error | undefined, text?: string) => {
      clearTimeout(timer);
      process.off('message', listener);
      if (error) reject(error);
      else resolve(text!);
    };
    process.on('message', listener);
    process.send?.({ type: ASK_PRIMARY, id });
  });
}

function askProcesses(): Promise<MetricsJson[]> {
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
  return Promise.all(
    workers.map(
      (worker) =>
        new Promise<MetricsJson>((resolve) => {
          const id = nextId++;
          const timer = setTimeout(() => done([]), PROCESS_ANSWER_MS);
          const listener = (message: Message) => {
            if (message?.type === ANSWER && message.id === id) done(message.metrics ?? []);
          };
          const done = (metrics: MetricsJson) => {
            clearTimeout(timer);
            worker!.off('message', listener);
            resolve(metrics);
          };
          worker!.on('message', listener);
          worker!.send({ type: ASK_PROCESS, id });
        }),
    ),
  );
}

/** In the primary: answer each process's request for the node's metrics, its own registry included. */
export function serveNodeMetrics(primary: Registry): void {
  cluster.on('message', (worker, message: Message) => {
    if (message?.type !== ASK_PRIMARY) return;
    void (async () => {
      const all = [...(await askProcesses()), await primary.getMetricsAsJSON()];
      const text = await AggregatorRegistry.aggregate(all).metrics();
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, text });
    })().catch(() => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, text: '' });
    });
  });
}
