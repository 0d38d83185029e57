/** The status page is static for now: these lists are its content. */
export type ServiceStatus = 'operational' | 'degraded' | 'outage' | 'maintenance';
export type IncidentSeverity = 'critical' | 'major' | 'minor' | 'maintenance';

export const OVERALL_STATUS: ServiceStatus = 'operational';

export const SERVICES: Array<{ name: string; description: string; status: ServiceStatus; uptime: string }> = [
  {
    name: 'Web Dashboard',
    description: 'Sign-in, repository picker and dashboard',
    status: 'operational',
    uptime: '99.99%',
  },
  {
    name: 'Deployment API',
    description: 'Starting and tracking deployments',
    status: 'operational',
    uptime: '99.98%',
  },
  { name: 'Build Pipeline', description: 'Docker image builds', status: 'operational', uptime: '99.95%' },
  {
    name: 'Virtual Machines',
    description: 'Running customer workloads',
    status: 'operational',
    uptime: '99.99%',
  },
  {
    name: 'Monitoring & Alerts',
    description: 'Health checks, email and Telegram alerts',
    status: 'operational',
    uptime: '99.97%',
  },
  { name: 'Log Streaming', description: 'Build and runtime logs', status: 'operational', uptime: '99.96%' },
];

export const INCIDENTS: Array<{
  title: string;
  date: string;
  severity: IncidentSeverity;
  status: 'resolved' | 'monitoring';
  summary: string;
}> = [
  {
    title: 'Scheduled database maintenance',
    date: 'January 20, 2025',
    severity: 'maintenance',
    status: 'resolved',
    summary: 'Planned upgrade of the control-plane database. Deployments were queued for 12 minutes.',
  },
  {
    title: 'Delayed build logs',
    date: 'January 8, 2025',
    severity: 'minor',
    status: 'resolved',
    summary: 'Build logs appeared up to 2 minutes late. Deployments themselves were not affected.',
  },
];
