// Named statements on the embedded database's session. PGlite's query() sends every statement
// unnamed (parse, describe, bind, describe, execute), so Postgres parses and plans it again on
// each call: on `memories`, whose 20 indexes the planner weighs, planning a one-row lookup costs
// ten times running it. A statement seen twice is prepared under a name, and from then on only
// bound and executed; Postgres keeps its plan as for any prepared statement (custom plans for
// the first five runs, then the generic plan unless it is estimated dearer).
import { parse as results, protocol, type PGlite, type Results, type SerializerOptions } from '@electric-sql/pglite';

/** Named statements kept on the session; the least recently used is closed beyond this. */
const MAX_PREPARED = 256;
/** Statements seen once, remembered to be prepared when seen again. */
const MAX_SEEN = 2048;
/** Statements that may change a table's columns (a prepared SELECT * of it would then fail), after any leading comments. */
const DDL = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:create|alter|drop|do|comment)\b/i;
/** Postgres's answer when a prepared statement's result columns changed under it. */
const STALE = /cached plan must not change result type/;

interface Statement {
  name: string;
  /** Parameter types as Postgres inferred them, which pick each value's serializer. */
  paramTypes: number[];
}

type Message = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

export class PreparedStatements {
  private prepared = new Map<string, Statement>();
  private seen = new Map<string, true>();
  private counter = 0;

  constructor(private readonly db: PGlite) {}

  async query(sql: string, params: unknown[], serializers?: SerializerOptions): Promise<Results<unknown>> {
    if (DDL.test(sql)) {
      const res = await this.db.query(sql, params, { serializers });
      await this.forgetAll();
      return res;
    }
    let statement = this.prepared.get(sql);
    if (statement) {
      this.prepared.delete(sql); // most recently used last
      this.prepared.set(sql, statement);
    } else if (this.seen.delete(sql)) {
      statement = await this.prepare(sql);
    } else {
      this.seen.set(sql, true);
      if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!);
      return this.db.query(sql, params, { serializers });
    }
    try {
      return await this.run(statement, params, serializers);
    } catch (err) {
      if (STALE.test(String((err as Error)?.message))) this.prepared.delete(sql);
      throw err;
    }
  }

  /** After DDL or a script (migrations): a table's columns may have changed. */
  async forgetAll(): Promise<void> {
    if (!this.prepared.size) return;
    this.prepared.clear();
    await this.db.exec('DEALLOCATE ALL');
  }

  private async prepare(sql: string): Promise<Statement> {
    // A fresh name each time: a statement whose describe failed may still exist on the session.
    const name = `loci_${++this.counter}`;
    const described = await this.exclusive(() => this.exchange([
      protocol.serialize.parse({ name, text: sql, types: [] }),
      protocol.serialize.describe({ type: 'S', name }),
    ]));
    const statement = { name, paramTypes: results.parseDescribeStatementResults(described) };
    this.prepared.set(sql, statement);
    if (this.prepared.size > MAX_PREPARED) {
      const [oldSql, old] = this.prepared.entries().next().value!;
      this.prepared.delete(oldSql);
      await this.exclusive(() => this.exchange([protocol.serialize.close({ type: 'S', name: old.name })]));
    }
    return statement;
  }

  private async run(statement: Statement, params: unknown[], serializers?: SerializerOptions): Promise<Results<unknown>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i];
      const serialize = serializers?.[type] ?? this.db.serializers[type];
      return serialize ? serialize(value) : String(value);
    });
    const messages = await this.exclusive(() => this.exchange([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
    ]));
    await this.db.syncToFs();
    return results.parseResults(messages, this.db.parsers)[0];
  }

  /** Sends the messages one by one, then Sync whatever happened, as PGlite's own query() does. */
  private async exchange(messages: Uint8Array[]): Promise<Message[]> {
    const out: Message[] = [];
    try {
      for (const m of messages) out.push(...await this.db.execProtocolStream(m, { syncToFs: false }));
    } finally {
      out.push(...await this.db.execProtocolStream(protocol.serialize.sync(), { syncToFs: false }));
    }
    return out;
  }

  /** Under PGlite's own locks, taken in the order its query() takes them. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.db._runExclusiveTransaction(() => this.db._runExclusiveQuery(fn));
  }
}
