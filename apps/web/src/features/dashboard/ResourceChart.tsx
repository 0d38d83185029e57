import { Activity } from 'lucide-react';
import { Link } from 'react-router';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useSystemHealthStatus, useVmHealth } from '../../api/monitoring';
import { Card, CardHeader, Spinner } from '../../components/ui';
import { lastHourSamples } from './chartData';

/** CPU and memory over the last hour, from the system-health history, once system health is deployed. */
export function ResourceChart({ workspace }: { workspace: string }) {
  const status = useSystemHealthStatus(workspace);
  const deployed = status.data?.system_health_deployed === true;
  const vm = useVmHealth(workspace, deployed);
  const samples = lastHourSamples(vm.data?.history ?? [], Date.now());
  const monitoringLink = `/monitoring?workspace=${encodeURIComponent(workspace)}`;

  return (
    <Card className="flex h-full max-h-80 flex-col">
      <CardHeader
        title="CPU and memory — last hour"
        icon={Activity}
        action={
          <Link to={monitoringLink} className="text-sm font-medium text-accent-700 hover:underline">
            Monitoring
          </Link>
        }
      />
      <div className="min-h-0 flex-1 px-2 py-3">
        {status.isLoading || (deployed && vm.isLoading) ? (
          <div className="flex h-48 items-center justify-center">
            <Spinner className="text-accent-600" />
          </div>
        ) : status.isError || vm.isError ? (
          <p className="px-4 py-8 text-center text-sm text-zinc-500">Metrics could not be loaded.</p>
        ) : !deployed ? (
          <p className="px-4 py-8 text-center text-sm text-zinc-500">
            {status.data?.message || 'System health monitoring is not deployed.'}{' '}
            <Link to={monitoringLink} className="font-medium text-accent-700 hover:underline">
              Set it up on the monitoring screen
            </Link>
          </p>
        ) : samples.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-zinc-500">No samples in the last hour yet.</p>
        ) : (
          <div className="h-52" data-testid="resource-chart">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={samples} margin={{ top: 5, right: 16, bottom: 0, left: -16 }}>
                <CartesianGrid stroke="#e4e4e7" strokeDasharray="3 3" />
                <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={24} />
                <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
                <Tooltip formatter={(value) => `${Number(value).toFixed(1)}%`} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Line
                  type="monotone"
                  dataKey="cpu"
                  name="CPU"
                  stroke="#4f46e5"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  type="monotone"
                  dataKey="memory"
                  name="Memory"
                  stroke="#10b981"
                  dot={false}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </div>
        )}
      </div>
    </Card>
  );
}
