import { builtImagePrefix } from '../infra/docker/conventions.js';

/**
 * Which images a workspace may run or build on. On a shared Docker Engine an image ID (or any unique prefix of
 * one, with or without `sha256:`) names whatever another tenant built, so only registry references
 * (`name[:tag][@digest]`, the grammar of distribution/reference) are accepted, and names in Slipway's own
 * namespace (`slipway-…`) only when they are the workspace's own.
 */
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const REFERENCE = new RegExp(
  `^(${NAME})(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@([a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}))?$`,
);

const HEX = /^[a-f0-9]+$/;

export type ImageProblem = 'not_a_reference' | 'image_id' | 'other_workspace';

export const IMAGE_PROBLEM_TEXT: Record<ImageProblem, string> = {
  not_a_reference: 'not a registry reference (name[:tag][@digest])',
  image_id: 'an image ID; use a registry reference (name[:tag][@digest])',
  other_workspace: 'images of other workspaces',
};

/** Why `reference` may not be used by this workspace, or undefined when it may. */
export function imageReferenceProblem(reference: string, workspaceId: string): ImageProblem | undefined {
  const text = reference.trim();
  if (text.length > 512) return 'not_a_reference';
  const match = REFERENCE.exec(text);
  if (!match) return 'not_a_reference';
  const [, name = '', tag, digest] = match;
  const last = name.split('/').pop() ?? '';
  // `sha256:<prefix>` parses as name "sha256" with a tag, and the engine looks it up as an ID prefix.
  if (name === 'sha256' || /^sha256$/i.test(last)) return 'image_id';
  // An untagged all-hex name falls back to an ID-prefix lookup when no image has that name; long ones always.
  if (HEX.test(name) && (name.length >= 12 || (tag === undefined && digest === undefined))) return 'image_id';
  if (/(^|\/)slipway-/.test(name) && !name.startsWith(builtImagePrefix(workspaceId)))
    return 'other_workspace';
  return undefined;
}
