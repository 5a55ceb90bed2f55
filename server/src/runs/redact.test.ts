import { describe, expect, it } from 'vitest';
import { secretRedactor } from './redact.js';

describe('secretRedactor', () => {
  const redact = secretRedactor([
    'redis://:s3cret-pass@10.0.0.5:6379',
    'postgres://app:p%40ss%2Fword@db.internal:5432/racelab?sslmode=require',
  ]);

  it('hides the URLs and their passwords wherever they appear in a text', () => {
    expect(redact('connect failed: redis://:s3cret-pass@10.0.0.5:6379 refused')).toBe('connect failed: redis://:***@10.0.0.5:6379 refused');
    expect(redact('AUTH s3cret-pass failed')).toBe('AUTH *** failed');
    expect(redact('password p@ss/word was rejected; raw p%40ss%2Fword too')).toBe('password *** was rejected; raw *** too');
    expect(redact('postgres://app:p%40ss%2Fword@db.internal:5432/racelab?sslmode=require')).not.toContain('p%40ss');
  });

  it('hides the password of any other URL a driver quotes back', () => {
    expect(redact('could not reach postgresql://someone:hunter2@elsewhere/db')).toBe(
      'could not reach postgresql://someone:***@elsewhere/db',
    );
  });

  it('leaves texts without secrets alone', () => {
    expect(redact('worker-1 failed: terminating connection due to administrator command')).toBe(
      'worker-1 failed: terminating connection due to administrator command',
    );
    // A URL without a password is not a secret.
    expect(secretRedactor(['redis://127.0.0.1:6379'])('ECONNREFUSED redis://127.0.0.1:6379')).toBe('ECONNREFUSED redis://127.0.0.1:6379');
  });
});
