import { isValidEmail } from '@slipway/contract';

export interface ProfileForm {
  firstName: string;
  lastName: string;
  email: string;
}
export type ProfileErrors = Partial<Record<keyof ProfileForm, string>>;

/** The spec's profile rules; email is checked only when GitHub gave us none. */
export function validateProfile(form: ProfileForm, needsEmail: boolean): ProfileErrors {
  const errors: ProfileErrors = {};
  if (!form.firstName.trim()) errors.firstName = 'First name is required';
  if (!form.lastName.trim()) errors.lastName = 'Last name is required';
  if (needsEmail) {
    const email = form.email.trim();
    if (!email) errors.email = 'Email is required';
    else if (!isValidEmail(email)) errors.email = 'Please enter a valid email address';
  }
  return errors;
}
