import { CheckCircle2, FileCode2, GitCommitHorizontal, Github, Info, ListTree, XCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import { SIGN_IN_URL } from '../../api/auth';
import { useInstallations } from '../../api/installations';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Badge, Button, buttonClasses, Card, LoadingView } from '../../components/ui';
import { countOf, NOUNS } from '../../lib/plural';

const PERMISSIONS = [
  {
    icon: FileCode2,
    name: 'Repository Contents',
    required: true,
    text: 'Read access to files and Dockerfiles, so Slipway can build your app.',
  },
  {
    icon: ListTree,
    name: 'Repository Metadata',
    required: true,
    text: 'Repository names, branches and descriptions for the repository picker.',
  },
  {
    icon: GitCommitHorizontal,
    name: 'Deployment Status',
    required: false,
    text: 'Writes the deployment status on your commits.',
  },
];

export function GithubAppPermissionsPage() {
  const navigate = useNavigate();
  const installations = useInstallations();
  if (installations.isPending) return <LoadingView />;
  const count = installations.data?.length ?? 0;
  const installed = count > 0;
  const toPicker = () => navigate('/repository-picker');

  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:py-16">
      <ScreenHeading icon={Github} title="Connect GitHub" tone="dark" size="lg" centered>
        <p className="mt-3 text-zinc-600">
          The Slipway GitHub App gives access only to the repositories you choose, with fine-grained
          permissions — safer than a broad OAuth grant.
        </p>
      </ScreenHeading>

      <Card className="mt-8 p-6">
        <div
          className={`flex items-center gap-3 rounded-lg px-4 py-3 ring-1 ${
            installed ? 'bg-emerald-50 ring-emerald-200' : 'bg-amber-50 ring-amber-200'
          }`}
        >
          {installed ? (
            <CheckCircle2 className="h-5 w-5 text-emerald-600" aria-hidden="true" />
          ) : (
            <XCircle className="h-5 w-5 text-amber-600" aria-hidden="true" />
          )}
          <p className={`font-medium ${installed ? 'text-emerald-900' : 'text-amber-900'}`}>
            {installed
              ? `GitHub App Installed (${countOf(count, NOUNS.installation)})`
              : 'GitHub App Not Installed'}
          </p>
        </div>

        <h2 className="mt-6 text-sm font-semibold text-zinc-900">Permissions requested</h2>
        <ul className="mt-3 divide-y divide-zinc-100">
          {PERMISSIONS.map((permission) => (
            <li key={permission.name} className="flex gap-3 py-3">
              <permission.icon className="mt-0.5 h-5 w-5 shrink-0 text-zinc-500" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-medium text-zinc-900">{permission.name}</p>
                  <Badge tone={permission.required ? 'accent' : 'neutral'}>
                    {permission.required ? 'Required' : 'Optional'}
                  </Badge>
                </div>
                <p className="mt-0.5 text-sm text-zinc-600">{permission.text}</p>
              </div>
            </li>
          ))}
        </ul>

        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {installed ? (
            <>
              <Button size="lg" className="flex-1" onClick={toPicker}>
                Continue to Repository Picker
              </Button>
              <a href={SIGN_IN_URL} className={buttonClasses('secondary', 'lg', 'flex-1')}>
                Install on More Repositories
              </a>
            </>
          ) : (
            <>
              <a href={SIGN_IN_URL} className={buttonClasses('primary', 'lg', 'flex-1')}>
                <Github className="h-5 w-5" aria-hidden="true" />
                Install GitHub App
              </a>
              <Button variant="secondary" size="lg" className="flex-1" onClick={toPicker}>
                Continue with OAuth (Less Secure)
              </Button>
            </>
          )}
        </div>
      </Card>

      <p className="mt-6 flex items-start gap-2 text-sm text-zinc-500">
        <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        You can change which repositories Slipway can access at any time in your GitHub settings (Settings →
        Applications → Installed GitHub Apps).
      </p>
    </div>
  );
}
