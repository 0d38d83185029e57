import { ArrowLeft, CreditCard, GitBranch, Server } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { createSubscription } from '../../api/billing';
import { usePublicConfig } from '../../api/publicConfig';
import { useVmSizes } from '../../api/repositories';
import { Alert, Button, Card, CardBody, CardHeader, LoadingView } from '../../components/ui';
import { type SelectedRepo, useDeploymentSelection } from '../../lib/deploymentSelection';
import { deployPath } from '../../lib/deployPath';
import { savePendingDeployment } from '../../lib/pendingDeployment';
import { FreeBetaNotice } from './FreeBetaNotice';

interface BillingNavigationState {
  repo?: SelectedRepo;
  branch?: string;
  vmSize?: string;
}

const FREE_BETA_STEP = {
  title: 'Payment setup',
  text: 'Nothing to pay: your free beta subscription starts right away.',
};
const NEXT_STEPS = [
  { title: 'Payment setup', text: 'Your monthly subscription is set up with PayPal (free during the beta).' },
  { title: 'VM creation', text: 'A virtual machine of the size you chose is prepared for your workspace.' },
  { title: 'Deployment', text: 'Your repository is built, started and published over HTTPS.' },
];

/** 'Complete Your Subscription': the monthly plan for the chosen VM size, then on to the deployment. */
export function BillingPage() {
  const { owner = '', repo: repoName = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const selection = useDeploymentSelection();
  const nav = (location.state ?? {}) as BillingNavigationState;
  const vmSizes = useVmSizes();
  const publicConfig = usePublicConfig();
  const freeBeta = publicConfig.data?.payments === 'free_beta';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const stored = selection.selectedRepo;
  // The stored selection of this repository is the full record (with its description); the navigation state of a
  // directly opened deploy link carries only the name.
  const repo =
    (stored && stored.name === repoName && stored.owner.login === owner ? stored : null) ?? nav.repo ?? null;
  const branch = nav.branch ?? selection.selectedBranch;
  const vmSizeId = nav.vmSize ?? selection.selectedVmSize;
  const vmSize = vmSizes.data?.find((size) => size.id === vmSizeId);

  if (!repo) return <Navigate to="/repository-picker" replace />;
  if (publicConfig.isPending) return <LoadingView />;
  const steps = freeBeta ? [FREE_BETA_STEP, ...NEXT_STEPS.slice(1)] : NEXT_STEPS;

  const subscribe = async () => {
    if (!repo || !branch || !vmSizeId) {
      setError('Missing deployment configuration');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const subscription = await createSubscription({
        owner: repo.owner.login,
        repo: repo.name,
        branch,
        vmSize: vmSizeId,
      });
      if (subscription.hosted_checkout_url) {
        savePendingDeployment({
          selectedRepo: repo,
          selectedBranch: branch,
          selectedVmSize: vmSizeId,
          subscriptionId: subscription.id,
        });
        window.location.assign(subscription.hosted_checkout_url);
        return;
      }
      navigate(deployPath(repo.owner.login, repo.name), {
        state: { branch, vmSize: vmSizeId, subscriptionId: subscription.id },
      });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Failed to create subscription');
      setBusy(false);
    }
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-950">Complete Your Subscription</h1>
      <p className="mt-1 text-zinc-600">
        {freeBeta
          ? 'Slipway is in free beta: confirm your deployment and continue.'
          : 'One monthly subscription per workspace, billed by VM size.'}
      </p>
      {freeBeta && <FreeBetaNotice vmSize={vmSize} />}

      {error && (
        <Alert tone="error" className="mt-6">
          {error}
        </Alert>
      )}

      <div className="mt-8 grid gap-6 md:grid-cols-5">
        <div className="space-y-6 md:col-span-3">
          <Card>
            <CardHeader title="Deployment Summary" icon={GitBranch} />
            <CardBody>
              <p className="font-semibold text-zinc-900" data-testid="billing-repo-name">
                {repo.name}
              </p>
              <p className="text-sm text-zinc-500">{repo.owner.login}</p>
              {repo.description && <p className="mt-2 text-sm text-zinc-600">{repo.description}</p>}
              <dl className="mt-4 space-y-2 text-sm">
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-500">Branch</dt>
                  <dd className="font-medium break-all text-zinc-900">{branch || '—'}</dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-zinc-500">VM configuration</dt>
                  <dd className="text-right font-medium text-zinc-900">
                    {vmSize ? `${vmSize.name} — ${vmSize.specs}` : vmSizeId || '—'}
                  </dd>
                </div>
              </dl>
            </CardBody>
          </Card>

          {!freeBeta && (
            <Card>
              <CardHeader title="Payment Method" icon={CreditCard} />
              <CardBody>
                <label className="flex cursor-pointer items-center gap-3 rounded-lg border border-accent-300 bg-accent-50 px-4 py-3">
                  <input
                    type="radio"
                    name="payment-method"
                    value="paypal"
                    checked
                    readOnly
                    className="accent-accent-600"
                  />
                  <span className="font-medium text-zinc-900">PayPal</span>
                </label>
              </CardBody>
            </Card>
          )}
        </div>

        <div className="space-y-6 md:col-span-2">
          <Card>
            <CardHeader title="Monthly Price" icon={Server} />
            <CardBody>
              <p className="text-3xl font-semibold text-zinc-950" data-testid="billing-price">
                {freeBeta ? '$0' : vmSize ? `$${vmSize.price}` : '—'}
                <span className="text-base font-normal text-zinc-500">/month</span>
              </p>
              {freeBeta && <p className="mt-1 text-sm font-medium text-emerald-700">Free during the beta</p>}
              {vmSize && <p className="mt-1 text-sm text-zinc-600">{vmSize.description}</p>}
              <Button className="mt-5 w-full" size="lg" loading={busy} onClick={() => void subscribe()}>
                {/* The spec's button in both modes: the free beta still starts a (trialing) subscription. */}
                {busy ? 'Creating Subscription...' : 'Start Subscription & Deploy'}
              </Button>
              <p className="mt-3 text-xs text-zinc-500">
                {freeBeta ? 'By continuing' : 'By subscribing'} you agree to the{' '}
                <Link to="/terms" className="text-accent-700 underline hover:text-accent-800">
                  Terms of Service
                </Link>{' '}
                and the{' '}
                <Link to="/privacy" className="text-accent-700 underline hover:text-accent-800">
                  Privacy Policy
                </Link>
                .
              </p>
            </CardBody>
          </Card>

          <Card>
            <CardBody>
              <h2 className="font-semibold text-zinc-900">What happens next?</h2>
              <ol className="mt-3 space-y-3">
                {steps.map((step, index) => (
                  <li key={step.title} className="flex gap-3 text-sm">
                    <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-accent-100 text-xs font-semibold text-accent-700">
                      {index + 1}
                    </span>
                    <span>
                      <span className="font-medium text-zinc-900">{step.title}</span>
                      <span className="block text-zinc-600">{step.text}</span>
                    </span>
                  </li>
                ))}
              </ol>
            </CardBody>
          </Card>
        </div>
      </div>

      <Button
        variant="ghost"
        className="mt-8"
        icon={ArrowLeft}
        onClick={() => navigate('/repository-picker')}
      >
        Back
      </Button>
    </div>
  );
}
