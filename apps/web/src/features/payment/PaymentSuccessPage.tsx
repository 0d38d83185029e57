import { CheckCircle2, CreditCard, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DetailRow } from '../../components/DetailRow';
import { Button, ButtonLink, Card } from '../../components/ui';
import { readDeploymentSelection } from '../../lib/deploymentSelection';
import { deployPath } from '../../lib/deployPath';
import { type PendingDeployment, takePendingDeployment } from '../../lib/pendingDeployment';

export const SUCCESS_DELAY_MS = 1000;
export const REDIRECT_DELAY_MS = 2000;
const DEFAULT_ERROR = 'There was an issue processing your payment. Please try again.';

type State =
  | { phase: 'processing' }
  | { phase: 'success'; pending: PendingDeployment }
  | { phase: 'error'; message: string; pending: PendingDeployment | null };

/** Back from the payment provider: processing, then success, then on to the deployment. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ phase: 'processing' });
  const taken = useRef<ReturnType<typeof takePendingDeployment> | null>(null);
  const subscriptionParam = params.get('subscription_id');

  useEffect(() => {
    // Consumed once on arrival (also under StrictMode's double effects).
    taken.current ??= takePendingDeployment();
    const read = taken.current;
    const timers: ReturnType<typeof setTimeout>[] = [];
    timers.push(
      setTimeout(() => {
        if (!read.ok) {
          setState({ phase: 'error', message: read.error || DEFAULT_ERROR, pending: null });
          return;
        }
        const pending = read.pending;
        setState({ phase: 'success', pending });
        timers.push(
          setTimeout(() => {
            const { selectedRepo: repo } = pending;
            navigate(deployPath(repo.owner.login, repo.name), {
              state: {
                branch: pending.selectedBranch,
                vmSize: pending.selectedVmSize,
                subscriptionId: subscriptionParam || pending.subscriptionId,
              },
            });
          }, REDIRECT_DELAY_MS),
        );
      }, SUCCESS_DELAY_MS),
    );
    return () => timers.forEach(clearTimeout);
  }, [navigate, subscriptionParam]);

  const tryAgain = () => {
    const repo = readDeploymentSelection().selectedRepo;
    navigate(
      repo
        ? `/billing/${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}`
        : '/repository-picker',
    );
  };

  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card className="p-8 text-center">
        {state.phase === 'processing' && (
          <div role="status">
            <Loader2 className="mx-auto h-12 w-12 animate-spin text-accent-600" aria-hidden="true" />
            <h1 className="mt-5 text-2xl font-semibold text-zinc-950">Processing Payment...</h1>
            <p className="mt-2 text-sm text-zinc-600">Confirming your subscription.</p>
          </div>
        )}
        {state.phase === 'success' && (
          <div role="status">
            <CheckCircle2 className="mx-auto h-12 w-12 text-emerald-600" aria-hidden="true" />
            <h1 className="mt-5 text-2xl font-semibold text-zinc-950">Payment Successful!</h1>
            <dl className="mx-auto mt-5 max-w-xs space-y-2 text-left text-sm">
              <DetailRow
                alignEnd={false}
                label="Repository"
                value={`${state.pending.selectedRepo.owner.login}/${state.pending.selectedRepo.name}`}
              />
              <DetailRow alignEnd={false} label="Branch" value={state.pending.selectedBranch} />
              <DetailRow alignEnd={false} label="VM size" value={state.pending.selectedVmSize} />
            </dl>
            <p className="mt-5 text-sm text-zinc-500">Taking you to your deployment...</p>
          </div>
        )}
        {state.phase === 'error' && (
          <div role="alert">
            <CreditCard className="mx-auto h-12 w-12 text-red-500" aria-hidden="true" />
            <h1 className="mt-5 text-2xl font-semibold text-zinc-950">Payment Issue</h1>
            <p className="mt-2 text-sm text-zinc-600">{state.message}</p>
            <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
              <Button onClick={tryAgain}>Try Again</Button>
              <ButtonLink to="/dashboard" variant="secondary">
                Return to Dashboard
              </ButtonLink>
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
