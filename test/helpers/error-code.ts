// The `code` of the error a promise rejects with ('ok' when it resolves), checking its class.
import { expect } from 'vitest';

export async function errorCode(p: Promise<unknown>, type: new (...args: any[]) => Error & { code: string }): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    expect(err).toBeInstanceOf(type);
    return (err as { code: string }).code;
  }
}
