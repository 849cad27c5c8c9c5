// NATS JetStream bus. Events are stored in one durable stream (subjects `<stream>.events.<type>`,
// lower-cased) and published with msgID = event.id so the server drops duplicates inside its
// de-duplication window. Each subscribed type gets a durable pull consumer shared by every
// replica; a pull loop fetches batches, acks after the handler resolves, naks with a growing
// delay when it throws, and after maxDeliver attempts copies the event to `<stream>_DLQ` and
// terminates it. Delivery is at least once: handlers must be idempotent.
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  Events,
  RetentionPolicy,
  StorageType,
  connect,
  nanos,
  type Consumer,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import type { BusEvent, BusHandler, BusHealth, EventBus } from './types.js';
import { checkEvent, checkType, retryDelay } from './common.js';

export interface NatsBusOptions {
  url: string;
  /** Stream name; subjects are `<name lower-cased>.events.>`. */
  stream?: string;
  /** Handler attempts per event, the first one included; then the event is dead-lettered. */
  maxDeliver?: number;
  /** The server redelivers an event whose handler has neither acked nor reported progress for this long. */
  ackWaitMs?: number;
  /** First redelivery delay after a failure (ms); doubles per attempt, capped at 64×. */
  retryBaseMs?: number;
  /** Messages fetched per pull request; also the handlers running at once per type. */
  batch?: number;
  /** How long one pull request waits for messages (ms, ≥ 1000). */
  fetchExpiresMs?: number;
  /** How long events are kept in the stream (ms). */
  maxAgeMs?: number;
  /** How long close() waits for running handlers before closing the connection (ms). */
  closeGraceMs?: number;
  /** Connection name shown by the server. */
  name?: string;
  /** Notified of failures worth logging; `tag` is symbolic. */
  onError?: (tag: string, err: unknown) => void;
}

type LoopState = 'starting' | 'running' | 'recovering' | 'halted' | 'stopped';

interface Sub {
  type: string;
  durable: string;
  filter: string;
  handler: BusHandler;
  state: LoopState;
  consumer?: Consumer;
  iter?: ConsumerMessages;
  loop?: Promise<void>;
  /** Stream sequences being handled right now. */
  inflight: Set<number>;
  /** Highest stream sequence acked or dead-lettered; where a deleted consumer resumes. */
  lastDoneSeq: number;
  /** A permanent failure noticed outside the loop (a denied pull request); the loop halts on it. */
  denied?: Error;
}

const DUPLICATE_WINDOW_MS = 2 * 60_000;
const DLQ_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
const MAX_RECOVERY_DELAY_MS = 5_000;

// JetStream API error codes (nats-server errors.json).
const ERR_STREAM_NOT_FOUND = 10059;
const ERR_CONSUMER_NOT_FOUND = 10014;

const enc = new TextEncoder();
const dec = new TextDecoder();

export class NatsBus implements EventBus {
  readonly kind = 'nats' as const;
  readonly stream: string;
  readonly dlqStream: string;
  private readonly subjectPrefix: string;
  private readonly dlqSubjectPrefix: string;
  private readonly maxDeliver: number;
  private readonly ackWaitMs: number;
  private readonly retryBaseMs: number;
  private readonly batch: number;
  private readonly fetchExpiresMs: number;
  private readonly maxAgeMs: number;
  private readonly closeGraceMs: number;

  private nc?: NatsConnection;
  private js?: JetStreamClient;
  private jsm?: JetStreamManager;
  private subs = new Map<string, Sub>();
  private starting?: Promise<void>;
  private started = false;
  private closing = false;
  private connected = false;
  private connectionLost = false;

  constructor(private opts: NatsBusOptions) {
    this.stream = opts.stream ?? 'LOCI_EVENTS';
    if (!/^[A-Za-z0-9_-]+$/.test(this.stream)) throw new Error(`invalid stream name: ${this.stream}`);
    this.dlqStream = `${this.stream}_DLQ`;
    const lower = this.stream.toLowerCase();
    this.subjectPrefix = `${lower}.events.`;
    this.dlqSubjectPrefix = `${lower}_dlq.`;
    this.maxDeliver = Math.max(1, opts.maxDeliver ?? 5);
    this.ackWaitMs = Math.max(100, opts.ackWaitMs ?? 30_000);
    this.retryBaseMs = opts.retryBaseMs ?? 1_000;
    this.batch = Math.max(1, opts.batch ?? 16);
    this.fetchExpiresMs = Math.max(1_000, opts.fetchExpiresMs ?? 5_000);
    this.maxAgeMs = opts.maxAgeMs ?? 7 * 24 * 60 * 60_000;
    this.closeGraceMs = opts.closeGraceMs ?? 5_000;
  }

  start(): Promise<void> {
    // A failed start (server unreachable) may be retried.
    this.starting ??= this.doStart().catch((err) => {
      this.starting = undefined;
      void this.nc?.close().catch(() => undefined);
      throw err;
    });
    return this.starting;
  }

  private async doStart() {
    const nc = await connect({
      servers: this.opts.url,
      name: this.opts.name ?? 'loci',
      maxReconnectAttempts: -1, // keep trying: an outage must not need a restart
      reconnectTimeWait: 250,
      timeout: 3_000,
      pingInterval: 10_000,
      ignoreClusterUpdates: true,
    });
    this.nc = nc;
    this.connected = true;
    void this.watchStatus(nc);
    void nc.closed().then((err) => {
      this.connected = false;
      if (!this.closing) {
        this.connectionLost = true;
        this.opts.onError?.('nats_connection_closed', err);
      }
    });
    this.js = nc.jetstream();
    this.jsm = await nc.jetstreamManager();
    await this.ensureStreams();
    this.started = true;
    for (const sub of this.subs.values()) this.launch(sub);
  }

  private async watchStatus(nc: NatsConnection) {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) this.connected = false;
      else if (s.type === Events.Reconnect) this.connected = true;
      else if (s.type === Events.Error && s.data === 'PERMISSIONS_VIOLATION') {
        this.permissionDenied((s as { permissionContext?: { operation?: string; subject?: string } }).permissionContext);
      }
    }
  }

  /**
   * A pull request the server refuses never fails the fetch: it only shows as a connection status
   * event naming the subject, and the fetch waits out its expiry empty. Halt the loop it belongs to.
   */
  private permissionDenied(ctx: { operation?: string; subject?: string } | undefined) {
    const prefix = `$JS.API.CONSUMER.MSG.NEXT.${this.stream}.`;
    if (!ctx?.subject?.startsWith(prefix)) return;
    const durable = ctx.subject.slice(prefix.length);
    for (const sub of this.subs.values()) {
      if (sub.durable !== durable) continue;
      sub.denied = new PermanentError(`permissions violation: ${ctx.operation ?? 'publish'} to ${ctx.subject}`);
      sub.iter?.stop();
    }
  }

  async publish(event: BusEvent): Promise<void> {
    await this.publishWithAck(event);
  }

  /** Publishes and tells whether the server dropped it as a duplicate id. */
  async publishWithAck(event: BusEvent): Promise<{ seq: number; duplicate: boolean }> {
    if (!this.js || this.closing) throw new Error(this.closing ? 'bus is closed' : 'bus not started');
    checkEvent(event);
    const ack = await this.js.publish(this.subjectPrefix + event.type, enc.encode(JSON.stringify(event)), {
      msgID: event.id,
      timeout: 5_000,
    });
    return { seq: ack.seq, duplicate: ack.duplicate };
  }

  subscribe(type: string, handler: BusHandler): void {
    checkType(type);
    if (this.subs.has(type)) throw new Error(`a handler for ${type} is already subscribed`);
    const sub: Sub = {
      type,
      durable: `loci_${type.replace(/\./g, '__')}`,
      filter: this.subjectPrefix + type,
      handler,
      state: 'starting',
      inflight: new Set(),
      lastDoneSeq: 0,
    };
    this.subs.set(type, sub);
    if (this.started && !this.closing) this.launch(sub);
  }

  health(): BusHealth {
    for (const sub of this.subs.values()) {
      if (sub.state === 'halted') return { status: 'unhealthy', detail: 'pull_loop_halted' };
    }
    if (this.connectionLost) return { status: 'unhealthy', detail: 'connection_closed' };
    if (!this.started) return { status: 'unhealthy', detail: 'not_started' };
    if (!this.connected) return { status: 'unhealthy', detail: 'disconnected' };
    return { status: 'ok' };
  }

  /** Waits until no subscribed consumer has undelivered or unacknowledged events. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let busy = false;
      for (const sub of this.subs.values()) {
        if (sub.state === 'halted') throw new Error('bus pull loop halted');
        if (sub.state !== 'running' || sub.inflight.size > 0) {
          busy = true;
          break;
        }
        try {
          const ci = await this.jsm!.consumers.info(this.stream, sub.durable);
          if (ci.num_pending > 0 || ci.num_ack_pending > 0) busy = true;
        } catch {
          busy = true;
        }
        if (busy) break;
      }
      if (!busy) return;
      if (Date.now() >= deadline) throw new Error('bus drain timed out');
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    }
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const sub of this.subs.values()) sub.iter?.stop();
    const loops = [...this.subs.values()].map((s) => s.loop).filter((l): l is Promise<void> => Boolean(l));
    // Handlers that do not finish in time are abandoned unacked: the server redelivers them.
    await Promise.race([Promise.allSettled(loops), sleep(this.closeGraceMs)]);
    for (const sub of this.subs.values()) if (sub.state !== 'halted') sub.state = 'stopped';
    if (this.starting) await this.starting.catch(() => undefined);
    await this.nc?.close().catch(() => undefined);
  }

  // ---- streams and consumers ----

  private async ensureStreams(): Promise<boolean> {
    const created = await this.ensureStream(this.stream, [this.subjectPrefix + '>'], this.maxAgeMs);
    await this.ensureStream(this.dlqStream, [this.dlqSubjectPrefix + '>'], DLQ_MAX_AGE_MS);
    return created;
  }

  /** Creates the stream or brings its subjects up to date; true when it had to be created. */
  private async ensureStream(name: string, subjects: string[], maxAgeMs: number): Promise<boolean> {
    const jsm = this.jsm!;
    try {
      const si = await jsm.streams.info(name);
      const have = si.config.subjects ?? [];
      if (subjects.some((s) => !have.includes(s))) {
        await jsm.streams.update(name, { ...si.config, subjects: [...new Set([...have, ...subjects])] });
      }
      return false;
    } catch (err) {
      if (apiErrCode(err) !== ERR_STREAM_NOT_FOUND) throw err;
    }
    await jsm.streams.add({
      name,
      subjects,
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(maxAgeMs),
      duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, maxAgeMs)),
    });
    return true;
  }

  private async ensureConsumer(sub: Sub, streamCreated: boolean): Promise<void> {
    const jsm = this.jsm!;
    try {
      const ci = await jsm.consumers.info(this.stream, sub.durable);
      if (ci.config.filter_subject !== sub.filter) {
        throw new PermanentError(`consumer ${sub.durable} exists with another filter subject`);
      }
      if (ci.config.ack_wait !== nanos(this.ackWaitMs) || ci.config.max_deliver !== -1) {
        await jsm.consumers.update(this.stream, sub.durable, { ack_wait: nanos(this.ackWaitMs), max_deliver: -1 });
      }
      return;
    } catch (err) {
      if (apiErrCode(err) !== ERR_CONSUMER_NOT_FOUND) throw err;
    }
    const cfg: Partial<ConsumerConfig> = {
      durable_name: sub.durable,
      filter_subject: sub.filter,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.ackWaitMs),
      // Unlimited on the server: dead-lettering is ours, so no event is dropped silently.
      max_deliver: -1,
      max_ack_pending: 1_000,
      deliver_policy: DeliverPolicy.All,
    };
    // A consumer deleted under a running loop resumes after what it last finished, not from the
    // start of the stream (unless the stream itself was recreated, which restarts sequences).
    if (sub.lastDoneSeq > 0 && !streamCreated) {
      const resume = sub.inflight.size > 0 ? Math.min(...sub.inflight) : sub.lastDoneSeq + 1;
      cfg.deliver_policy = DeliverPolicy.StartSequence;
      cfg.opt_start_seq = resume;
    }
    await jsm.consumers.add(this.stream, cfg);
  }

  // ---- pull loop ----

  private launch(sub: Sub) {
    sub.loop ??= this.pullLoop(sub).catch((err) => {
      sub.state = 'halted';
      this.opts.onError?.('nats_pull_loop_failed', err);
    });
  }

  private async pullLoop(sub: Sub): Promise<void> {
    let failures = 0;
    let needSetup = true;
    let streamCreated = false;
    while (!this.closing) {
      try {
        if (needSetup) {
          if (sub.state === 'recovering') streamCreated = await this.ensureStreams();
          await this.ensureConsumer(sub, streamCreated);
          sub.consumer = await this.js!.consumers.get(this.stream, sub.durable);
          needSetup = false;
          streamCreated = false;
        }
        sub.state = 'running';
        const iter = await sub.consumer!.fetch({ max_messages: this.batch, expires: this.fetchExpiresMs });
        sub.iter = iter;
        const work: Promise<void>[] = [];
        try {
          for await (const m of iter) work.push(this.handle(sub, m));
        } finally {
          sub.iter = undefined;
          await Promise.all(work);
        }
        if (sub.denied) throw sub.denied;
        failures = 0;
      } catch (err) {
        if (this.closing) break;
        if (isPermanent(err)) {
          sub.state = 'halted';
          this.opts.onError?.('nats_pull_loop_halted', err);
          return;
        }
        // Missing stream/consumer, a deleted consumer, no responders or a timeout: set up again.
        failures++;
        sub.state = 'recovering';
        needSetup = true;
        if (failures === 1) this.opts.onError?.('nats_pull_loop_recovering', err);
        await sleep(Math.min(100 * 2 ** Math.min(failures - 1, 6), MAX_RECOVERY_DELAY_MS));
      }
    }
    if (sub.state !== 'halted') sub.state = 'stopped';
  }

  private async handle(sub: Sub, m: JsMsg): Promise<void> {
    const seq = m.seq;
    const attempt = m.info.deliveryCount;
    sub.inflight.add(seq);
    try {
      let event: BusEvent;
      try {
        event = JSON.parse(dec.decode(m.data)) as BusEvent;
        checkEvent(event);
      } catch (err) {
        await this.deadLetter(sub, m, null, attempt, 'malformed_event', err);
        return;
      }
      // Past the limit without a recorded failure: an earlier attempt died with its process.
      if (attempt > this.maxDeliver) {
        await this.deadLetter(sub, m, event, attempt, 'max_deliver_exceeded', null);
        return;
      }
      const keepAlive = setInterval(() => safe(() => m.working()), Math.max(50, Math.floor(this.ackWaitMs / 2)));
      let failure: unknown = null;
      try {
        await sub.handler(event);
      } catch (err) {
        failure = err ?? new Error('handler failed');
      } finally {
        clearInterval(keepAlive);
      }
      if (failure === null) {
        // ackAck: drain and the next fetch see the ack already applied.
        await m.ackAck().catch(() => undefined);
        sub.lastDoneSeq = Math.max(sub.lastDoneSeq, seq);
      } else if (attempt >= this.maxDeliver) {
        await this.deadLetter(sub, m, event, attempt, 'handler_failed', failure);
      } else {
        safe(() => m.nak(retryDelay(this.retryBaseMs, attempt)));
      }
    } finally {
      sub.inflight.delete(seq);
    }
  }

  private async deadLetter(sub: Sub, m: JsMsg, event: BusEvent | null, attempts: number, reason: string, err: unknown) {
    const record = {
      event: event ?? { raw: dec.decode(m.data) },
      type: sub.type,
      reason,
      attempts,
      error: err instanceof Error ? err.message : err == null ? null : String(err),
      stream_seq: m.seq,
      failed_at: new Date().toISOString(),
    };
    try {
      await this.js!.publish(this.dlqSubjectPrefix + sub.type, enc.encode(JSON.stringify(record)), {
        msgID: `${event?.id ?? `seq-${m.seq}`}:dlq`,
        timeout: 5_000,
      });
    } catch (pubErr) {
      // Could not park it: keep it in the stream and try again later.
      this.opts.onError?.('nats_dead_letter_failed', pubErr);
      safe(() => m.nak(retryDelay(this.retryBaseMs, attempts)));
      return;
    }
    // Plain +TERM: nats-server 2.9 ignores a term that carries a reason.
    safe(() => m.term());
    sub.lastDoneSeq = Math.max(sub.lastDoneSeq, m.seq);
  }

  /** Reads the most recent dead letters (admin, tests). */
  async deadLetters(limit = 100): Promise<Array<Record<string, unknown>>> {
    const jsm = this.jsm;
    if (!jsm) throw new Error('bus not started');
    const si = await jsm.streams.info(this.dlqStream);
    const out: Array<Record<string, unknown>> = [];
    for (let seq = si.state.last_seq; seq >= si.state.first_seq && seq > 0 && out.length < limit; seq--) {
      try {
        const sm = await jsm.streams.getMessage(this.dlqStream, { seq });
        out.unshift(JSON.parse(dec.decode(sm.data)) as Record<string, unknown>);
      } catch {
        // purged or deleted in between
      }
    }
    return out;
  }
}

class PermanentError extends Error {}

function apiErrCode(err: unknown): number | undefined {
  return (err as { api_error?: { err_code?: number } } | null)?.api_error?.err_code;
}

/**
 * Errors that another attempt cannot fix: permission violations, and JetStream API refusals
 * (4xx other than not-found/timeout), e.g. the stream cannot be recreated because another
 * stream now owns its subjects.
 */
function isPermanent(err: unknown): boolean {
  if (err instanceof PermanentError) return true;
  const e = err as { code?: string; api_error?: { code?: number; err_code?: number } } | null;
  if (!e) return false;
  if (e.code === 'PERMISSIONS_VIOLATION') return true;
  if (/permissions violation/i.test(String((err as Error).message ?? ''))) return true;
  const api = e.api_error;
  if (api?.code !== undefined) {
    if (api.err_code === ERR_STREAM_NOT_FOUND || api.err_code === ERR_CONSUMER_NOT_FOUND) return false;
    return api.code >= 400 && api.code < 500 && api.code !== 404 && api.code !== 408 && api.code !== 409;
  }
  return false;
}

function safe(fn: () => void) {
  try {
    fn();
  } catch {
    // the connection is gone; the server redelivers
  }
}

function sleep(ms: number) {
  return new Promise<void>((r) => setTimeout(r, ms));
}
