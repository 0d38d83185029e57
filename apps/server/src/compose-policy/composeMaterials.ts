import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MATERIALS_DIR, type Material } from '../infra/compose/composeV1.js';

/**
 * Writes the files the translated project expects (inline configs, secrets and Dockerfiles) into the run's own
 * checkout. Whatever the repository had at MATERIALS_DIR goes first (a link is removed, never followed), and each
 * file is created new, so nothing is written through a link.
 */
export async function writeMaterials(repoDir: string, materials: Material[]) {
  const dir = path.join(repoDir, MATERIALS_DIR);
  await rm(dir, { recursive: true, force: true });
  if (materials.length === 0) return;
  await mkdir(dir, { mode: 0o755 });
  for (const { relativePath, content } of materials) {
    await writeFile(path.join(repoDir, relativePath), content, { flag: 'wx', mode: 0o644 });
  }
}
