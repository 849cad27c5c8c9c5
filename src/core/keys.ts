// API keys: minted with a random secret, stored only as a SHA-256 hash, shown once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';

export const KEY_PREFIX = 'loci_';

export interface KeyRecord {
  id: string;
  tenant_id: string;
  agent_id: string | null;
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
  trust_level?: number;
  name?: string | null;
  readable_tenants?: string[];
}

export const hashKey = (raw: string) => createHash('sha256').update(raw).digest('hex');

const COLUMNS = `id, tenant_id, agent_id, trust_level, name, readable_tenants, created_at, revoked_at, last_used_at, prefix`;

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

  async create(input: NewKey, raw?: string): Promise<KeyRecord & { key: string }> {
    const key = raw ?? KEY_PREFIX + randomBytes(24).toString('base64url');
    const id = randomUUID();
    const { rows } = await this.db.query(
      `INSERT INTO api_keys (id, key_hash, prefix, tenant_id, agent_id, trust_level, name, readable_tenants)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [id, hashKey(key), key.slice(0, KEY_PREFIX.length + 6), input.tenant_id, input.agent_id ?? null,
        input.trust_level ?? 1, input.name ?? null, input.readable_tenants ?? []],
    );
    return { ...toRecord(rows[0]), key };
  }

  async list(tenantId?: string): Promise<KeyRecord[]> {
    const { rows } = tenantId
      ? await this.db.query(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at DESC`, [tenantId])
      : await this.db.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at DESC`);
    return rows.map(toRecord);
  }

  async get(id: string): Promise<KeyRecord | null> {
    const { rows } = await this.db.query(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Revokes a key; false when no active key has that id. */
  async revoke(id: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING key_hash`, [id]);
    for (const r of rows) this.cache.delete(r.key_hash);
    return rows.length > 0;
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

  /** Makes sure a given raw key exists as an admin key (LOCI_ADMIN_KEY). */
  async ensure(raw: string, input: NewKey): Promise<void> {
    const { rows } = await this.db.query(`SELECT id FROM api_keys WHERE key_hash = $1`, [hashKey(raw)]);
    if (rows.length === 0) await this.create(input, raw);
  }
}
