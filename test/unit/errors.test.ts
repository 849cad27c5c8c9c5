import { describe, expect, it } from 'vitest';
import { ajvToItem } from '../../src/http/errors.js';
import { asDomainError, DomainError } from '../../src/core/errors.js';

describe('ajvToItem', () => {
  it('maps a missing property to a pydantic-style item', () => {
    expect(ajvToItem({ keyword: 'required', instancePath: '', params: { missingProperty: 'content' }, data: {} }, 'body'))
      .toEqual({ loc: ['body', 'content'], msg: 'Field required', type: 'missing', input: {}, ctx: {} });
  });
  it('maps nested paths, array indexes and limits', () => {
    const item = ajvToItem({ keyword: 'maximum', instancePath: '/items/3/weight', params: { limit: 1 }, data: 2 }, 'body');
    expect(item).toMatchObject({ loc: ['body', 'items', 3, 'weight'], type: 'less_than_equal', input: 2, ctx: { le: 1 } });
  });
  it('names the query part and formats', () => {
    const item = ajvToItem({ keyword: 'format', instancePath: '/created_after', params: { format: 'date-time' }, data: 'x' }, 'querystring');
    expect(item).toMatchObject({ loc: ['query', 'created_after'], type: 'datetime_parsing', input: 'x' });
  });
});

describe('a database that cannot be reached', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  it('is a 503 with Retry-After, whichever way the driver says so', () => {
    for (const err of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('wrapped', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }),
    ]) {
      const mapped = asDomainError(err);
      expect(mapped, err.message).toBeInstanceOf(DomainError);
      expect((mapped as DomainError).status).toBe(503);
      expect((mapped as DomainError).headers['retry-after']).toBe('2');
    }
  });
  it('other failures stay unexpected', () => {
    expect(asDomainError(withCode('duplicate key', '23505'))).toBeNull();
    expect(asDomainError(withCode('syntax error at or near', '42601'))).toBeNull();
    expect(asDomainError(new TypeError('x is undefined'))).toBeNull();
  });
});
