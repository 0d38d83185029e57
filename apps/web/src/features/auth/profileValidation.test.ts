import { describe, expect, it } from 'vitest';
import { validateProfile } from './profileValidation';

describe('validateProfile', () => {
  it('requires first and last name', () => {
    expect(validateProfile({ firstName: ' ', lastName: '', email: '' }, false)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
    });
  });

  it("keeps the server's length limit", () => {
    const long = 'a'.repeat(101);
    expect(validateProfile({ firstName: long, lastName: long, email: '' }, false)).toEqual({
      firstName: 'First name must be at most 100 characters',
      lastName: 'Last name must be at most 100 characters',
    });
    expect(validateProfile({ firstName: 'a'.repeat(100), lastName: 'L', email: '' }, false)).toEqual({});
  });

  it('checks the email only when GitHub gave none', () => {
    const form = { firstName: 'Ada', lastName: 'Lovelace', email: '' };
    expect(validateProfile(form, false)).toEqual({});
    expect(validateProfile(form, true)).toEqual({ email: 'Email is required' });
    expect(validateProfile({ ...form, email: 'ada@' }, true)).toEqual({
      email: 'Please enter a valid email address',
    });
    expect(validateProfile({ ...form, email: 'ada@example.com' }, true)).toEqual({});
  });
});
