import { insertApiRequests, type ApiRequestRecord } from '../../storage/repositories/api-request-log.js';
import type { Queryable } from '../../storage/port.js';

export interface RequestLogWriterSettings {
  /** How long a noted request may wait before its batch is written. */
  readonly flushIntervalMs: number;
  /** A batch this large is written at once, whatever the interval. */
  readonly batchSize: number;
  /** Requests held while the database is slow; beyond, new ones are dropped (and counted), never queued without bound. */
  readonly maxBuffered: number;
}

export const DEFAULT_REQUEST_LOG_WRITER_SETTINGS: RequestLogWriterSettings = { flushIntervalMs: 1000, batchSize: 500, maxBuffered: 20_000 };

export interface RequestLogWriterHooks {
  /** A batch could not be written (the database away): its requests are lost to the log, never retried into a pile. */
  readonly onWriteFailed?: (error: unknown, lost: number) => void;
}

/**
 * Writes the merchants' API requests to the request log in batches, off the request path: a
 * request only pushes its record; one statement a second (or a full batch) writes them all. The
 * log is a developer's aid, not a ledger: when the database is away, records are dropped, and a
 * payment never waits for its log row.
 */
export class RequestLogWriter {
  private buffer: ApiRequestRecord[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Requests not kept because the buffer was full (the database slower than the traffic). */
  droppedCount = 0;

  constructor(
    private readonly db: Queryable,
    private readonly settings: RequestLogWriterSettings = DEFAULT_REQUEST_LOG_WRITER_SETTINGS,
    private readonly hooks: RequestLogWriterHooks = {},
  ) {}

  note(record: ApiRequestRecord): void {
    if (this.closed) return;
    if (this.buffer.length >= this.settings.maxBuffered) {
      this.droppedCount += 1;
      return;
    }
    this.buffer.push(record);
    if (this.buffer.length >= this.settings.batchSize) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.settings.flushIntervalMs).unref();
  }

  /** Writes what is buffered; one write at a time, the next batch waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, this.settings.batchSize);
    this.writing = insertApiRequests(this.db, batch)
      .catch((error: unknown) => this.hooks.onWriteFailed?.(error, batch.length))
      .finally(() => {
        this.writing = undefined;
      });
    await this.writing;
    if (this.buffer.length > 0) {
      if (this.buffer.length >= this.settings.batchSize) await this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.settings.flushIntervalMs).unref();
    }
  }

  /** Writes everything still buffered (a graceful shutdown), then takes no more. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.buffer.length > 0 || this.writing) await this.flush();
  }
}
