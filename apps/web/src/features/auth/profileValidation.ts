import { completeProfileRequestSchema, isValidEmail } from '@slipway/contract';

export interface ProfileForm {
  firstName: string;
  lastName: string;
  email: string;
}
export type ProfileErrors = Partial<Record<keyof ProfileForm, string>>;

/** The first message of the contract's rule for one field, or undefined when the value passes. */
function ruleError(
  rule: (typeof completeProfileRequestSchema.shape)['firstName' | 'lastName'],
  value: string,
): string | undefined {
  const result = rule.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * The spec's profile rules: the names by the contract's own schema (required, at most 100 characters, as
 * the server checks them); email is checked only when GitHub gave us none.
 */
export function validateProfile(form: ProfileForm, needsEmail: boolean): ProfileErrors {
  const errors: ProfileErrors = {};
  const { firstName, lastName } = completeProfileRequestSchema.shape;
  const firstNameError = ruleError(firstName, form.firstName);
  const lastNameError = ruleError(lastName, form.lastName);
  if (firstNameError) errors.firstName = firstNameError;
  if (lastNameError) errors.lastName = lastNameError;
  if (needsEmail) {
    const email = form.email.trim();
    if (!email) errors.email = 'Email is required';
    else if (!isValidEmail(email)) errors.email = 'Please enter a valid email address';
  }
  return errors;
}
