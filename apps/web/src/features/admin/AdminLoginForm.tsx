import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { adminLogin } from '../../api/admin';
import { httpStatus, serverError } from '../../api/errors';
import { Alert, Button, Card, CardBody, IconTile, Input } from '../../components/ui';

/** The Admin Access form: Enter or the button submits the password. */
export function AdminLoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await adminLogin(password);
      if (result.success) {
        setPassword('');
        onSuccess();
      } else {
        setError('Authentication failed');
      }
    } catch (failure) {
      // Too many attempts: the server's own message says how long to wait.
      setError(
        httpStatus(failure) === 429
          ? (serverError(failure) ?? 'Too many attempts. Wait a minute and try again.')
          : 'Invalid admin password',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex min-h-screen items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardBody className="space-y-6 py-8">
          <div className="flex flex-col items-center gap-3 text-center">
            <IconTile icon={ShieldCheck} size="lg" className="rounded-full bg-accent-50 text-accent-600" />
            <h1 className="text-2xl font-semibold text-zinc-900">Admin Access</h1>
            <p className="text-sm text-zinc-500">Enter the admin password to open the Slipway admin panel.</p>
          </div>
          <form className="space-y-4" onSubmit={submit}>
            <Input
              label="Admin Password"
              type="password"
              autoComplete="current-password"
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            {error && <Alert tone="error">{error}</Alert>}
            <Button type="submit" className="w-full" loading={busy} disabled={!password}>
              Access Admin Panel
            </Button>
          </form>
        </CardBody>
      </Card>
    </div>
  );
}
