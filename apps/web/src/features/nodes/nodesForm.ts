import {
  setWorkspaceNodesRequestSchema,
  type WorkspaceNodes,
  workspaceNodeCountSchema,
} from '@slipway/contract';
import type { SettingsFormRules } from '../../components/settings/useSettingsForm';

/** The form as typed: the number stays text until Save, so a half-typed one is not replaced under the cursor. */
export interface NodesForm {
  nodes: string;
}

export type NodesProblems = Partial<Record<'nodes', string>>;

const toForm = (saved: WorkspaceNodes): NodesForm => ({ nodes: String(saved.node_count) });

/** The count to PUT, checked by the contract's schema first; its sentence when not. */
function toRequest(form: NodesForm): { settings: number } | { problems: NodesProblems } {
  const parsed = setWorkspaceNodesRequestSchema.safeParse({
    nodes: form.nodes.trim() === '' ? undefined : Number(form.nodes),
  });
  if (parsed.success) return { settings: parsed.data.nodes };
  return { problems: { nodes: parsed.error.issues[0]?.message ?? 'Enter a number of nodes' } };
}

/** The Nodes setting's form, for useSettingsForm. */
export const NODES_FORM: SettingsFormRules<WorkspaceNodes, NodesForm, NodesProblems, number> = {
  toForm,
  toRequest,
  same: (form, saved) => form.nodes.trim() === String(saved.node_count),
  bounds: { nodes: workspaceNodeCountSchema },
};
