// The event bus: in-process by default, NATS JetStream when LOCI_NATS_URL is set.
// Events are versioned JSON. Handlers must be idempotent: a distributed bus delivers at least once.
export interface BusEvent<T = unknown> {
  /** Unique id; the distributed bus also uses it for publish de-duplication. */
  id: string;
  /** e.g. "memory.written" */
  type: string;
  /** Schema version of `data`. */
  version: number;
  tenant_id: string;
  occurred_at: string;
  data: T;
}

export type BusHandler = (event: BusEvent) => Promise<void>;

export interface BusHealth {
  status: 'ok' | 'unhealthy';
  detail?: string; // symbolic, never a raw error message
}

export interface EventBus {
  readonly kind: 'in-process' | 'nats';
  start(): Promise<void>;
  publish(event: BusEvent): Promise<void>;
  /** One handler per event type; a throw means "not handled": redelivered, dead-lettered after N attempts. */
  subscribe(type: string, handler: BusHandler): void;
  health(): BusHealth;
  /** Resolves when every event published so far has been handled (tests, graceful shutdown). */
  drain(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
