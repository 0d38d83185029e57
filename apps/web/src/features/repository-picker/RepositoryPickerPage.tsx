import { FolderGit2, Search, SearchX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useRepositories } from '../../api/repositories';
import { useAuth } from '../../components/AuthProvider';
import { EmptyState } from '../../components/EmptyState';
import { Alert, Spinner } from '../../components/ui';
import {
  type SelectedRepo,
  useDeploymentSelection,
  wantsConfigureReopen,
} from '../../lib/deploymentSelection';
import { ConfigureDeploymentDialog, type DeploymentChoice } from './ConfigureDeploymentDialog';
import { Pagination } from './Pagination';
import { RepositoryCard } from './RepositoryCard';
import {
  countLine,
  filterRepositories,
  type PickerRepository,
  pageCount,
  pageSlice,
  sortByUpdated,
} from './repositoryListing';

function toSelectedRepo(repo: PickerRepository): SelectedRepo {
  return {
    id: repo.id,
    name: repo.name,
    owner: { login: repo.owner.login },
    description: repo.description,
    private: repo.private,
    language: repo.language,
  };
}

export function RepositoryPickerPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { error: authError } = useAuth();
  const selection = useDeploymentSelection();
  const repositories = useRepositories();
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [dialogOpen, setDialogOpen] = useState(false);
  const reopened = useRef(false);

  // Back from the variables or review screen, with a stored repository and branch, reopens the dialog once.
  const reopenRequested = wantsConfigureReopen(location.state);
  useEffect(() => {
    if (reopened.current) return;
    reopened.current = true;
    if (reopenRequested && selection.selectedRepo && selection.selectedBranch) setDialogOpen(true);
  }, [reopenRequested, selection.selectedRepo, selection.selectedBranch]);

  useEffect(() => {
    if (repositories.error) console.error('Repository load failed', repositories.error);
  }, [repositories.error]);

  const filtered = useMemo(
    () => filterRepositories(sortByUpdated(repositories.data ?? []), term),
    [repositories.data, term],
  );
  const totalPages = pageCount(filtered.length);
  const currentPage = Math.min(page, totalPages);
  const visible = pageSlice(filtered, currentPage);

  const choose = (repo: PickerRepository) => {
    selection.update({ selectedRepo: toSelectedRepo(repo), selectedBranch: '' });
    setDialogOpen(true);
  };
  const close = () => {
    setDialogOpen(false);
    selection.update({ selectedRepo: null, selectedBranch: '' });
  };
  const confirm = ({ branch, vmSize, nodes }: DeploymentChoice) => {
    const repo = selection.selectedRepo;
    if (!repo) return;
    selection.update({ selectedBranch: branch, selectedVmSize: vmSize, selectedNodes: nodes });
    setDialogOpen(false);
    navigate(`/env-variables/${encodeURIComponent(repo.name)}`);
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-12">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-950">Choose Repository to Deploy</h1>
        <p className="text-zinc-600">Pick a Docker-based repository, then choose its branch and VM size.</p>
      </div>

      {(authError || repositories.error) && (
        <Alert tone="error" className="mt-6">
          {authError ?? repositories.error?.message}
        </Alert>
      )}

      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-md">
          <Search className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-zinc-400" />
          <input
            type="search"
            value={term}
            onChange={(event) => {
              setTerm(event.target.value);
              setPage(1);
            }}
            placeholder="Search repositories..."
            aria-label="Search repositories"
            className="block w-full rounded-lg border border-zinc-300 bg-white py-2.5 pr-3 pl-9 text-sm shadow-sm focus:border-accent-500 focus:ring-2 focus:ring-accent-100 focus:outline-none"
          />
        </div>
        {!repositories.isPending && (
          <p className="text-sm text-zinc-600" data-testid="repository-count">
            {countLine(filtered.length, term)}
          </p>
        )}
      </div>

      {repositories.isPending ? (
        <div role="status" className="flex items-center justify-center gap-3 py-24 text-zinc-600">
          <Spinner className="text-accent-600" /> Loading repositories...
        </div>
      ) : visible.length === 0 ? (
        <NoRepositories searching={term.trim() !== '' && (repositories.data?.length ?? 0) > 0} />
      ) : (
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {visible.map((repo) => (
            <RepositoryCard
              key={`${repo.owner.login}/${repo.name}`}
              repo={repo}
              onChoose={() => choose(repo)}
            />
          ))}
        </div>
      )}

      <Pagination page={currentPage} totalPages={totalPages} onPage={setPage} />

      {selection.selectedRepo && (
        <ConfigureDeploymentDialog
          open={dialogOpen}
          repo={selection.selectedRepo}
          initialBranch={selection.selectedBranch}
          initialVmSize={selection.selectedVmSize}
          initialNodes={selection.selectedNodes}
          onClose={close}
          onConfirm={confirm}
        />
      )}
    </div>
  );
}

function NoRepositories({ searching }: { searching: boolean }) {
  return (
    <EmptyState
      className="mt-6 bg-white"
      icon={searching ? SearchX : FolderGit2}
      title={searching ? 'No repositories found' : 'No repositories available'}
      description={
        searching ? 'Try adjusting your search terms' : 'Connect your GitHub repositories to get started'
      }
    />
  );
}
