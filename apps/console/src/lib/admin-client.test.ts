import { adminOperations } from '@keycard/contract/admin-paths';
import { describe, expect, it } from 'vitest';
import { readAnswer } from './admin-client.ts';
import { ApiError } from './api-error.ts';

const keys = { keys: [{ kid: 'k1', createdAt: 1, active: true }] };

describe('readAnswer', () => {
  it('parses an answer with the schema of the status it came with', () => {
    expect(readAnswer(adminOperations.listSigningKeys, 200, keys)).toEqual(keys);
  });

  it('refuses, as off the contract, an answer with a field its schema does not have', () => {
    const extra = { keys: [{ kid: 'k1', createdAt: 1, active: true, privateKey: 'x' }] };
    expect(() => readAnswer(adminOperations.listSigningKeys, 200, extra)).toThrow(ApiError);
    try {
      readAnswer(adminOperations.listSigningKeys, 200, extra);
    } catch (error) {
      expect(error instanceof ApiError && error.code).toBe('contract');
    }
  });

  it('refuses a success status the operation does not list', () => {
    // Its keys are listed with 200; a 201 is not what the contract says it answers.
    let caught: unknown;
    try {
      readAnswer(adminOperations.listSigningKeys, 201, keys);
    } catch (error) {
      caught = error;
    }
    expect(caught instanceof ApiError && caught.code).toBe('contract');
    expect(caught instanceof ApiError && caught.status).toBe(201);
  });
});
