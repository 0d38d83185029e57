import { describe, expect, it } from 'vitest';
import { validateProfile } from './profileValidation';

describe('validateProfile', () => {
  it('requires first and last name', () => {
    expect(validateProfile({ firstName: ' ', lastName: '', email: '' }, false)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
    });
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
