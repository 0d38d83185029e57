import { AlertCircle } from 'lucide-react';
import { ButtonLink } from '../ui';

/** Spec: load errors show 'Error Loading Settings' with 'Go Back' to /dashboard. */
export function SettingsLoadError({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center rounded-xl border border-red-200 bg-red-50 px-6 py-12 text-center"
    >
      <AlertCircle className="h-8 w-8 text-red-600" aria-hidden="true" />
      <h2 className="mt-3 text-lg font-semibold text-red-900">Error Loading Settings</h2>
      <p className="mt-1 text-sm text-red-800">{message}</p>
      <ButtonLink to="/dashboard" variant="secondary" className="mt-6">
        Go Back
      </ButtonLink>
    </div>
  );
}

/** The settings' load error for a query that failed, in the server's words: AsyncSection's `failed`. */
export const settingsLoadError = (error: Error) => <SettingsLoadError message={error.message} />;
