import { adminOperations } from '@keycard/contract/admin-paths';
import { describe, expect, it } from 'vitest';
import { ApiError, errorFromAnswer, parseRequestBody } from './api-error.ts';

describe('errorFromAnswer', () => {
  it("takes the contract's code and the fields a refusal names", () => {
    const error = errorFromAnswer(409, {
      code: 'admin.domain_taken',
      message: 'That domain belongs to another tenant.',
      fields: { loginDomain: 'taken' },
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('admin.domain_taken');
    expect(error.status).toBe(409);
    expect(error.fields).toEqual({ loginDomain: 'taken' });
  });

  it("keeps a 429's wait", () => {
    const error = errorFromAnswer(429, {
      code: 'admin.rate_limited',
      message: 'Too many requests.',
      fields: { retryAfterSeconds: '12' },
    });
    expect(error.code).toBe('admin.rate_limited');
    expect(error.fields?.retryAfterSeconds).toBe('12');
  });

  it('answers unknown for a code the contract does not have, keeping what the server said', () => {
    const error = errorFromAnswer(400, { code: 'admin.made_up', message: 'no' });
    expect(error.code).toBe('unknown');
    expect(error.message).toBe('admin.made_up');
    expect(error.fields).toBeUndefined();
  });

  it('answers unknown for an answer that is not an error object (a proxy page, nothing)', () => {
    for (const answer of [null, 'Bad gateway', [], { message: 'no code' }]) {
      const error = errorFromAnswer(502, answer);
      expect(error.code, JSON.stringify(answer)).toBe('unknown');
      expect(error.status).toBe(502);
    }
  });
});

describe('parseRequestBody', () => {
  const schema = adminOperations.savePartner.body;

  it('answers the body as its operation takes it, defaults filled in', () => {
    const body = parseRequestBody(schema, {
      code: 'acme',
      issuer: 'https://partner.example',
      jwks: null,
      jwksUri: 'https://partner.example/jwks.json',
    });
    expect(body.code).toBe('acme');
    expect(body.linking).toBe('link-verified-email');
  });

  it('refuses a body off its schema as common.validation_failed, naming the fields', () => {
    let caught: unknown;
    try {
      parseRequestBody(schema, { code: 'acme', issuer: 'https://partner.example', surprise: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const error = caught instanceof ApiError ? caught : null;
    expect(error?.code).toBe('common.validation_failed');
    expect(Object.keys(error?.fields ?? {})).toContain('jwksUri');
  });
});
