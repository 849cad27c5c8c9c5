import { describe, expect, it } from 'vitest';
import { ajvToItem } from '../../src/http/errors.js';

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
