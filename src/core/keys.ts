// API keys: minted with a random secret, stored only as a SHA-256 hash, shown once. Minting,
// listing and revoking are admin (trust 3) operations, checked here for every surface.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';
import { type Caller, requireTrust, TRUST } from './caller.js';
import { notFound } from './errors.js';

export const KEY_PREFIX = 'loci_';

export interface KeyRecord {
  id: string;
  tenant_id: string;
  agent_id: string | null;
  /** The fleet the key is bound to: trust 1 stays in it, trust 2 and up may cross fleets. */
  fleet_id: string | null;
  trust_level: number;
  name: string | null;
  readable_tenants: string[];
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  prefix: string;
}

export interface NewKey {
  tenant_id: string;
  agent_id?: string | null;
  fleet_id?: string | null;
  trust_level?: number;
  name?: string | null;
  readable_tenants?: string[];
}

export const hashKey = (raw: string) => createHash('sha256').update(raw).digest('hex');
export const newRawKey = () => KEY_PREFIX + randomBytes(24).toString('base64url');

/** The caller a valid key stands for. */
export const keyCaller = (key: KeyRecord): Caller => ({
  tenantId: key.tenant_id,
  agentId: key.agent_id,
  fleetId: key.fleet_id,
  trust: key.trust_level,
  source: 'api_key',
  keyId: key.id,
  readableTenants: key.readable_tenants,
  authenticated: true,
});

const COLUMNS = `id, tenant_id, agent_id, fleet_id, trust_level, name, readable_tenants, created_at, revoked_at, last_used_at, prefix`;

function toRecord(r: any): KeyRecord {
  return {
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  };
}

interface Cached { rec: KeyRecord | null; at: number }

export class KeyService {
  // Resolved keys are cached briefly so a request does not cost a lookup; a revoke here
  // clears the entry, other replicas see it within CACHE_MS.
  private cache = new Map<string, Cached>();
  static CACHE_MS = 10_000;

  constructor(private db: Db) {}

  async create(caller: Caller, input: NewKey): Promise<KeyRecord & { key: string }> {
    requireTrust(caller, TRUST.admin, 'Minting keys');
    return this.insert(input);
  }

  private async insert(input: NewKey): Promise<KeyRecord & { key: string }> {
    const key = newRawKey();
    const id = randomUUID();
    const { rows } = await this.db.query(
      `INSERT INTO api_keys (id, key_hash, prefix, tenant_id, agent_id, fleet_id, trust_level, name, readable_tenants)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [id, hashKey(key), key.slice(0, KEY_PREFIX.length + 6), input.tenant_id, input.agent_id ?? null, input.fleet_id ?? null,
        input.trust_level ?? 1, input.name ?? null, input.readable_tenants ?? []],
    );
    return { ...toRecord(rows[0]), key };
  }

  async list(caller: Caller, tenantId?: string): Promise<KeyRecord[]> {
    requireTrust(caller, TRUST.admin, 'Listing keys');
    const { rows } = tenantId
      ? await this.db.query(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at DESC`, [tenantId])
      : await this.db.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at DESC`);
    return rows.map(toRecord);
  }

  /** Revokes a key; 404 when no active key has that id. */
  async revoke(caller: Caller, id: string): Promise<void> {
    requireTrust(caller, TRUST.admin, 'Revoking keys');
    const { rows } = await this.db.query(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING key_hash`, [id]);
    for (const r of rows) this.cache.delete(r.key_hash);
    if (rows.length === 0) throw notFound('Key');
  }

  /** The active key for a raw secret, or null. */
  async resolve(raw: string): Promise<KeyRecord | null> {
    if (!raw.startsWith(KEY_PREFIX) || raw.length > 200) return null;
    const hash = hashKey(raw);
    const hit = this.cache.get(hash);
    if (hit && Date.now() - hit.at < KeyService.CACHE_MS) return hit.rec;
    const { rows } = await this.db.query(
      `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [hash]);
    const rec = rows[0] ? toRecord(rows[0]) : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { rec, at: Date.now() });
    return rec;
  }

  // When each key's last_used_at was last written by this process: at most one write a minute per key.
  private touched = new Map<string, number>();
  static TOUCH_MS = 60_000;

  /**
   * Records that a key was used. Cheap: a key's last_used_at is written at most once a minute
   * (per process), after the request's own work, and a failure only loses the update.
   */
  touch(id: string, now = Date.now()): void {
    const last = this.touched.get(id);
    if (last !== undefined && now - last < KeyService.TOUCH_MS) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(id, now);
    void this.db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [id]).catch(() => this.touched.delete(id));
  }

  /**
   * Start-up only: makes `raw` the bootstrap admin key (LOCI_ADMIN_KEY, or <data dir>/admin.key)
   * and revokes every other bootstrap key, so changing LOCI_ADMIN_KEY retires the old one.
   * Returns false when `raw` was itself revoked earlier (it is not revived).
   */
  async ensureBootstrap(raw: string, input: NewKey): Promise<boolean> {
    const hash = hashKey(raw);
    return this.db.tx(async (q) => {
      const { rows } = await q.query<{ id: string; revoked_at: unknown }>(`SELECT id, revoked_at FROM api_keys WHERE key_hash = $1`, [hash]);
      if (rows[0]?.revoked_at) return false;
      if (rows.length === 0) {
        await q.query(
          `INSERT INTO api_keys (id, key_hash, prefix, tenant_id, trust_level, name, bootstrap) VALUES ($1, $2, $3, $4, $5, $6, true)`,
          [randomUUID(), hash, raw.slice(0, KEY_PREFIX.length + 6), input.tenant_id, input.trust_level ?? TRUST.admin, input.name ?? 'admin']);
      } else {
        await q.query(`UPDATE api_keys SET bootstrap = true WHERE id = $1`, [rows[0].id]);
      }
      const { rows: gone } = await q.query<{ key_hash: string }>(
        `UPDATE api_keys SET revoked_at = now() WHERE bootstrap AND revoked_at IS NULL AND key_hash <> $1 RETURNING key_hash`, [hash]);
      for (const r of gone) this.cache.delete(r.key_hash);
      return true;
    });
  }
}
