import { z } from 'zod';

/** The most VMs (nodes) one workspace runs on; one node is a single VM running Compose, as always. */
export const MAX_WORKSPACE_NODES = 5;

/** How many nodes of its VM size a workspace runs on: the deploy request's `nodes` and the Nodes setting. */
export const workspaceNodeCountSchema = z
  .number({ error: `The number of nodes is a whole number from 1 to ${MAX_WORKSPACE_NODES}` })
  .int({ error: `The number of nodes is a whole number from 1 to ${MAX_WORKSPACE_NODES}` })
  .min(1, { error: 'A workspace runs on at least 1 node' })
  .max(MAX_WORKSPACE_NODES, { error: `A workspace runs on at most ${MAX_WORKSPACE_NODES} nodes` });

/**
 * Where a node stands:
 * - `ready`: its engine answers (and, in a cluster, the managers see it ready and taking work);
 * - `lost`: its engine does not answer in time, or the managers marked it down (a VM down, an engine stopped, a
 *   network cut); `message` says which;
 * - `drained`: it answers, but its work was moved to the other nodes;
 * - `pending`: counted, but it has no VM yet — the next deployment creates it.
 */
export const NODE_STATES = ['ready', 'lost', 'drained', 'pending'] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const workspaceNodeSchema = z.strictObject({
  /** 1 is the workspace's first VM (the one a single-node workspace runs on), then 2, 3, … */
  index: z.number().int().min(1),
  state: z.enum(NODE_STATES),
  /** Its part in the workspace's Swarm; null while it is in none (one node, or not joined yet). */
  role: z.enum(['manager', 'worker']).nullable(),
  /** Beyond the node count: the next deployment moves its work away and gives its VM back. */
  leaving: z.boolean(),
  /** Why it is lost or pending, in words; null when ready. */
  message: z.string().nullable(),
});
export type WorkspaceNode = z.infer<typeof workspaceNodeSchema>;

/** GET and PUT /api/workspace-nodes/{name}: the node count the next deployment runs on, and each node now. */
export const workspaceNodesSchema = z.strictObject({
  node_count: z.number().int().min(1).max(MAX_WORKSPACE_NODES),
  nodes: z.array(workspaceNodeSchema),
});
export type WorkspaceNodes = z.infer<typeof workspaceNodesSchema>;

/** PUT /api/workspace-nodes/{name}: stored now, applied by the next deployment. */
export const setWorkspaceNodesRequestSchema = z.object({ nodes: workspaceNodeCountSchema });
export type SetWorkspaceNodesRequest = z.infer<typeof setWorkspaceNodesRequestSchema>;
