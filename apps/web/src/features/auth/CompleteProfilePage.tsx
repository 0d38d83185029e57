import { splitName, type User } from '@slipway/contract';
import { UserRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { completeProfile } from '../../api/auth';
import { isNetworkError, serverError } from '../../api/errors';
import { useAuth } from '../../components/AuthProvider';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Alert, Avatar, Button, Card, Input } from '../../components/ui';
import { type ProfileErrors, type ProfileForm, validateProfile } from './profileValidation';

function initialForm(user: User): ProfileForm {
  const split = splitName(user.name);
  return {
    firstName: user.first_name ?? split.firstName,
    lastName: user.last_name ?? split.lastName,
    email: '',
  };
}

export function CompleteProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return <CompleteProfileForm user={user} />;
}

function CompleteProfileForm({ user }: { user: User }) {
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = useState<ProfileForm>(() => initialForm(user));
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needsEmail = !user.email;

  /** An input's name, value, error and change handler (which clears its error). */
  const field = (name: keyof ProfileForm) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((prev) => ({ ...prev, [name]: event.target.value }));
      setErrors((prev) => ({ ...prev, [name]: undefined }));
    },
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateProfile(form, needsEmail);
    setErrors(found);
    setSubmitError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await completeProfile({
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        email: needsEmail ? form.email.trim() : (user.email ?? ''),
      });
      await refresh();
      // The guard sends users who are not whitelisted on to the waiting list.
      navigate('/repository-picker');
    } catch (error) {
      setSubmitError(
        isNetworkError(error)
          ? 'Failed to update profile. Please try again.'
          : (serverError(error) ?? 'Failed to update profile'),
      );
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto max-w-lg px-4 py-12 sm:py-16">
      <ScreenHeading icon={UserRound} title="Complete Your Profile" centered>
        <p className="mt-2 text-zinc-600">Tell us who you are so we can reach you about your deployments.</p>
      </ScreenHeading>

      <Card className="mt-8 p-6 sm:p-8">
        <div className="flex items-center gap-4 border-b border-zinc-100 pb-6">
          <Avatar src={user.avatar_url} name={user.login} size="lg" />
          <div className="min-w-0">
            <p className="truncate font-semibold text-zinc-900">{user.name ?? user.login}</p>
            <p className="truncate text-sm text-zinc-500">@{user.login}</p>
            {user.email && <p className="truncate text-sm text-zinc-500">{user.email}</p>}
          </div>
        </div>

        <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
          {submitError && <Alert tone="error">{submitError}</Alert>}
          <div className="grid gap-5 sm:grid-cols-2">
            <Input label="First Name" autoComplete="given-name" required {...field('firstName')} />
            <Input label="Last Name" autoComplete="family-name" required {...field('lastName')} />
          </div>
          {needsEmail ? (
            <Input
              label="Email"
              type="email"
              autoComplete="email"
              required
              placeholder="you@example.com"
              hint="Your GitHub account has no public email. We use it for deployment alerts and account news."
              {...field('email')}
            />
          ) : (
            <div>
              <p className="text-sm font-medium text-zinc-800">Email</p>
              <p className="mt-1.5 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-700 ring-1 ring-zinc-200">
                {user.email}
              </p>
            </div>
          )}
          <Button type="submit" size="lg" className="w-full" loading={busy}>
            {busy ? 'Completing Profile...' : 'Complete Profile'}
          </Button>
        </form>
      </Card>
    </div>
  );
}
