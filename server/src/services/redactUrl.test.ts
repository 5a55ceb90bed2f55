import { describe, expect, it } from 'vitest';
import { redactUrl } from './redactUrl.js';

describe('redactUrl', () => {
  it('hides the password of a postgres URL but keeps the rest', () => {
    const out = redactUrl('postgres://app:s3cret@db.example:5433/racelab');
    expect(out).not.toContain('s3cret');
    expect(out).toBe('postgres://app:***@db.example:5433/racelab');
  });

  it('hides a redis password given without a user name', () => {
    expect(redactUrl('redis://:hunter2@127.0.0.1:6379/0')).toBe('redis://:***@127.0.0.1:6379/0');
  });

  it('hides a password passed as a query parameter', () => {
    const out = redactUrl('postgres://127.0.0.1/postgres?user=app&password=s3cret');
    expect(out).not.toContain('s3cret');
    expect(out).toContain('user=app');
  });

  it('leaves URLs without a password untouched', () => {
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('still hides the password of something that is not a parseable URL', () => {
    expect(redactUrl('redis://user:pa ss@[bad')).not.toContain('pa ss');
  });
});
