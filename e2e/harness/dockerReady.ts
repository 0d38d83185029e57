import { execFileSync } from 'node:child_process';

/** Whether the Docker Engine has busybox:1.36 (the test apps' base) and the Compose CLI is installed. */
export function dockerReady(): boolean {
  try {
    execFileSync('docker', ['image', 'inspect', 'busybox:1.36'], { stdio: 'ignore' });
    execFileSync('docker-compose', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
