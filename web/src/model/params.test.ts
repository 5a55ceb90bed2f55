import { describe, expect, it } from 'vitest';
import { duplicateJobManifest as m } from './fixtures/manifest.js';
import { checkInputs, defaultInputs, fieldErrors, wireParams } from './params.js';

describe('params', () => {
  it('fills the fields from the variant’s defaults', () => {
    expect(defaultInputs(m, 'no-lock')).toEqual({ workers: '3', ttlMs: '500', offsetsMs: '0,600,850', store: 'postgres' });
    expect(defaultInputs(m, 'token-lua').ttlMs).toBe('400');
  });

  it('reports each bad field in the server’s words', () => {
    const errors = fieldErrors(m, 'no-lock', { workers: '99', ttlMs: '500', offsetsMs: '0,x', store: 'postgres' });
    expect(errors).toEqual({
      workers: "parameter 'workers' must be an integer from 1 to 8, got 99",
      offsetsMs: "parameter 'offsetsMs' must be a comma-separated list of 1 to 8 integers from 0 to 5000, got 0,x",
    });
    expect(fieldErrors(m, 'no-lock', defaultInputs(m, 'no-lock'))).toEqual({});
  });

  it('resolves the form and sends lists as text', () => {
    const r = checkInputs(m, 'no-lock', { ...defaultInputs(m, 'no-lock'), workers: ' 7 ' });
    expect(r).toEqual({ ok: true, params: { workers: 7, ttlMs: 500, offsetsMs: [0, 600, 850], store: 'postgres' } });
    if (r.ok) expect(wireParams(r.params)).toEqual({ workers: 7, ttlMs: 500, offsetsMs: '0,600,850', store: 'postgres' });
    expect(checkInputs(m, 'no-lock', { workers: '' }).ok).toBe(false);
  });
});
