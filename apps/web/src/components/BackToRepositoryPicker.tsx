import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { REOPEN_CONFIGURE_STATE } from '../lib/deploymentSelection';
import { ButtonLink } from './ui';

/** The deploy wizard's way back: the repository picker, its Configure Deployment dialog open again. */
export function BackToRepositoryPicker({ children }: { children: ReactNode }) {
  return (
    <ButtonLink to="/repository-picker" state={REOPEN_CONFIGURE_STATE} variant="secondary" icon={ArrowLeft}>
      {children}
    </ButtonLink>
  );
}
