import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSubnetPool, type SubnetPool } from '../infra/compose/networkSubnets.js';
import { type BackupStore, backupStoreFrom } from './backupConfig.js';
import { type ClusterSettings, clusterSettingsFrom } from './clusterConfig.js';
import { type Env, envSchema } from './envSchema.js';

/**
 * The repository root (this file is apps/server/src/config/config.ts). Relative paths in the
 * configuration, DATA_DIR's default `.slipway` included, are resolved against it rather than against
 * the working directory, which `npm start` sets to apps/server.
 */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

const LETS_ENCRYPT_PRODUCTION = 'https://acme-v02.api.letsencrypt.org/directory';
const LETS_ENCRYPT_STAGING = 'https://acme-staging-v02.api.letsencrypt.org/directory';
const commaList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export type AuthMode = 'github' | 'local';

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (Fastify's `trustProxy`): without this, a client
   * could name a new address per request and escape every per-address rate limit.
   */
  trustProxy: string[] | false;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  logLevel: Env['LOG_LEVEL'];
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  authMode: AuthMode;
  localReposDir: string;
  localOperatorLogin: string;
  github: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    appId: string | undefined;
    appPrivateKey: string | undefined;
    appSlug: string | undefined;
    apiUrl: string;
    webUrl: string;
    /** Signs GitHub's webhook deliveries (deploy on push); without it POST /api/webhooks/github answers 404. */
    webhookSecret: string | undefined;
  };
  mail: { smtpUrl: string | undefined; from: string };
  telegram: { botToken: string | undefined; apiUrl: string };
  paypal: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    webhookId: string | undefined;
    apiUrl: string;
  };
  ingress: {
    caddyAdminUrl: string | undefined;
    publicDomain: string | undefined;
    httpsPort: number;
    /** Where apex custom domains point (A/AAAA); empty: only CNAMEs can be offered. */
    addresses: string[];
    /** The resolvers custom-domain checks ask; empty: the system's. */
    dnsServers: string[];
    /** What Caddy asks before it orders a certificate for a custom domain: this server, on loopback. */
    permissionUrl: string;
    acme: {
      directoryUrl: string;
      email: string | undefined;
      caRootFile: string | undefined;
      caaIdentities: string[];
    };
  };
  /** The landing page's demo video embed URL; without it the landing shows the poster only. */
  demoVideoUrl: string | undefined;
  /** `minFreeDiskBytes`: below this much free disk on the VM a build first prunes, then refuses (0: never). */
  deployments: {
    healthTimeoutMs: number;
    keepVersions: number;
    minFreeDiskBytes: number;
    /** A running deployment's heartbeat interval; five missed heartbeats mean its worker died. */
    heartbeatMs: number;
    /** The subnets workspaces' networks are given (never Docker's default pools, which hold ~30 networks). */
    networkPool: SubnetPool;
  };
  /** Days a workspace keeps running after its subscription is cancelled or falls past due. */
  billingGraceDays: number;
  /** A real cAdvisor for the admin panel's monitoring; without it the Docker Engine is read directly. */
  cadvisor: { url: string | undefined };
  vm: {
    provider: Env['VM_PROVIDER'];
    dockerSocket: string;
    azure: {
      subscriptionId: string | undefined;
      resourceGroup: string | undefined;
      location: string;
      subnetId: string | undefined;
      armUrl: string;
      keyVaultUrl: string | undefined;
      /** With keyVaultUrl: secrets at rest are envelope-encrypted under this Key Vault key. */
      keyVaultKeyName: string | undefined;
    };
    ssh: {
      host: string | undefined;
      port: number;
      user: string | undefined;
      privateKeyFile: string | undefined;
    };
    /** Where nodes 2, 3, … of a workspace on several nodes go (config/clusterConfig.ts). */
    cluster: ClusterSettings;
  };
  /** Running apps: health checks, metric samples, log retention, the `system` container's image. */
  monitoring: {
    healthCheckIntervalMs: number;
    metricSampleIntervalMs: number;
    logRetentionLines: number;
    logRetentionDays: number;
    systemHealthImage: string;
  };
  /** Where workspaces' backup repositories live (config/backupConfig.ts). */
  backups: { store: BackupStore };
  /** Present in production (required there); generated into the data directory otherwise. */
  secrets: {
    sessionSecret: string | undefined;
    encryptionKey: string | undefined;
    adminPassword: string | undefined;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment once; a bad value names its variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, options: { root?: string } = {}): Config {
  const root = options.root ?? REPOSITORY_ROOT;
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  if (production) {
    const missing = (['SESSION_SECRET', 'ENCRYPTION_KEY', 'ADMIN_PASSWORD', 'DATABASE_URL'] as const).filter(
      (name) => !env[name],
    );
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: is required when NODE_ENV=production`).join('\n')}`,
      );
    }
  }
  const authMode: AuthMode = env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET ? 'github' : 'local';
  if (env.GITHUB_CLIENT_ID && !env.GITHUB_CLIENT_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  GITHUB_CLIENT_SECRET: is required with GITHUB_CLIENT_ID',
    );
  }
  if (production && authMode === 'local') {
    // Local mode signs anyone in as the operator: a production server must have a real sign-in.
    throw new ConfigError(
      [
        'Invalid configuration:',
        '  GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET: are required when NODE_ENV=production (GitHub sign-in;',
        "    the local operator sign-in exists only outside production). With a GitHub App, use the App's",
        '    client ID and secret here, and GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG beside them.',
      ].join('\n'),
    );
  }
  if (Boolean(env.AZURE_KEY_VAULT_URL) !== Boolean(env.AZURE_KEY_VAULT_KEY_NAME)) {
    // Half a Key Vault setup would silently keep secrets on the local key: say so instead.
    throw new ConfigError(
      'Invalid configuration:\n  AZURE_KEY_VAULT_KEY_NAME: AZURE_KEY_VAULT_URL and AZURE_KEY_VAULT_KEY_NAME go together',
    );
  }
  // Local mode signs anyone in as the operator, so it never listens beyond this machine.
  const host = authMode === 'local' ? '127.0.0.1' : (env.HOST ?? '0.0.0.0');
  const dataDir = path.resolve(root, env.DATA_DIR);
  const backupStore = backupStoreFrom(env, dataDir);
  if (typeof backupStore === 'string') throw new ConfigError(`Invalid configuration:\n  ${backupStore}`);
  const networkPool = subnetPoolFrom(env);
  const cluster = clusterSettingsFrom(env, env.SSH_PORT);
  if (typeof cluster === 'string') throw new ConfigError(`Invalid configuration:\n  ${cluster}`);
  return {
    env: env.NODE_ENV,
    production,
    host,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    authMode,
    localReposDir: path.resolve(root, env.LOCAL_REPOS_DIR ?? path.join(dataDir, 'repos')),
    localOperatorLogin: env.LOCAL_OPERATOR_LOGIN,
    github: {
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      appId: env.GITHUB_APP_ID,
      appPrivateKey: env.GITHUB_APP_PRIVATE_KEY,
      appSlug: env.GITHUB_APP_SLUG,
      apiUrl: env.GITHUB_API_URL.replace(/\/$/, ''),
      webUrl: env.GITHUB_WEB_URL.replace(/\/$/, ''),
      webhookSecret: env.GITHUB_WEBHOOK_SECRET,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    telegram: { botToken: env.TELEGRAM_BOT_TOKEN, apiUrl: env.TELEGRAM_API_URL.replace(/\/$/, '') },
    paypal: {
      clientId: env.PAYPAL_CLIENT_ID,
      clientSecret: env.PAYPAL_CLIENT_SECRET,
      webhookId: env.PAYPAL_WEBHOOK_ID,
      apiUrl: env.PAYPAL_API_URL.replace(/\/$/, ''),
    },
    ingress: {
      caddyAdminUrl: env.CADDY_ADMIN_URL,
      publicDomain: env.PUBLIC_DOMAIN,
      httpsPort: env.INGRESS_HTTPS_PORT,
      addresses: commaList(env.INGRESS_ADDRESSES),
      dnsServers: commaList(env.DNS_SERVERS),
      permissionUrl: `http://127.0.0.1:${env.PORT}/api/tls/permission`,
      acme: {
        directoryUrl:
          env.ACME_CA ?? (env.ACME_STAGING === 'true' ? LETS_ENCRYPT_STAGING : LETS_ENCRYPT_PRODUCTION),
        email: env.ACME_EMAIL,
        caRootFile: env.ACME_CA_ROOT,
        caaIdentities: commaList(env.ACME_CAA_IDENTITIES),
      },
    },
    demoVideoUrl: env.DEMO_VIDEO_URL,
    trustProxy: trustedProxies(env.TRUST_PROXY, production),
    deployments: {
      healthTimeoutMs: env.DEPLOY_HEALTH_TIMEOUT_SECONDS * 1000,
      keepVersions: env.DEPLOY_KEEP_VERSIONS,
      minFreeDiskBytes: env.DEPLOY_MIN_FREE_DISK_MB * 1024 * 1024,
      networkPool,
      heartbeatMs: env.DEPLOY_HEARTBEAT_SECONDS * 1000,
    },
    billingGraceDays: env.BILLING_GRACE_DAYS,
    cadvisor: { url: env.CADVISOR_URL?.replace(/\/$/, '') },
    vm: {
      provider: env.VM_PROVIDER,
      dockerSocket: env.DOCKER_SOCKET,
      azure: {
        subscriptionId: env.AZURE_SUBSCRIPTION_ID,
        resourceGroup: env.AZURE_RESOURCE_GROUP,
        location: env.AZURE_LOCATION,
        subnetId: env.AZURE_SUBNET_ID,
        armUrl: env.AZURE_ARM_URL.replace(/\/$/, ''),
        keyVaultUrl: env.AZURE_KEY_VAULT_URL,
        keyVaultKeyName: env.AZURE_KEY_VAULT_KEY_NAME,
      },
      ssh: {
        host: env.SSH_HOST,
        port: env.SSH_PORT,
        user: env.SSH_USER,
        privateKeyFile: env.SSH_PRIVATE_KEY_FILE,
      },
      cluster,
    },
    monitoring: {
      healthCheckIntervalMs: env.HEALTH_CHECK_INTERVAL_MS,
      metricSampleIntervalMs: env.METRIC_SAMPLE_INTERVAL_MS,
      logRetentionLines: env.LOG_RETENTION_LINES,
      logRetentionDays: env.LOG_RETENTION_DAYS,
      systemHealthImage: env.SYSTEM_HEALTH_IMAGE,
    },
    backups: { store: backupStore },
    secrets: {
      sessionSecret: env.SESSION_SECRET,
      encryptionKey: env.ENCRYPTION_KEY,
      adminPassword: env.ADMIN_PASSWORD,
    },
  };
}

/** TRUST_PROXY, or Caddy on the same host (loopback) in production; nobody otherwise. */
function trustedProxies(value: string | undefined, production: boolean): string[] | false {
  if (value === undefined) return production ? ['loopback'] : false;
  if (value === 'none') return false;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function subnetPoolFrom(env: Env): SubnetPool {
  try {
    return parseSubnetPool(env.WORKSPACE_NETWORK_POOL, env.WORKSPACE_NETWORK_SIZE);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}
