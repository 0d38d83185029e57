import { backupsTab } from '../features/backups/BackupsTab';
import { domainsTab } from '../features/custom-domains/DomainsTab';
import { previewsTab } from '../features/previews/PreviewsTab';
import { WorkspaceSettingsPage } from '../features/workspace-settings/WorkspaceSettingsPage';

/** The areas with a tab of their own in Workspace Settings, in the order they follow its own tabs. */
const AREA_TABS = [domainsTab, previewsTab, backupsTab];

/** Workspace Settings with the other areas' tabs: composed here, where a feature may meet another. */
export function WorkspaceSettingsScreen() {
  return <WorkspaceSettingsPage moreTabs={AREA_TABS} />;
}
