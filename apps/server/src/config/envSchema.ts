import { z } from 'zod';
import { DEFAULT_NETWORK_POOL, DEFAULT_NETWORK_SIZE } from '../infra/compose/networkSubnets.js';
import { backupEnvShape } from './backupConfig.js';
import { clusterEnvShape } from './clusterConfig.js';
import { optionalString, optionalUrl } from './envValues.js';

/** Every environment variable Slipway reads. `.env.example` documents each one. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: optionalString,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default('.slipway'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
      .optional(),
  ),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(12, 'must be at least 12 characters').optional()),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_APP_ID: optionalString,
  GITHUB_APP_PRIVATE_KEY: optionalString,
  GITHUB_APP_SLUG: optionalString,
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GITHUB_WEB_URL: z.url().default('https://github.com'),
  GITHUB_WEBHOOK_SECRET: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  LOCAL_REPOS_DIR: optionalString,
  LOCAL_OPERATOR_LOGIN: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,39}$/, 'must look like a GitHub login')
    .default('operator'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Slipway <no-reply@slipway.localhost>'),
  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_API_URL: z.url().default('https://api.telegram.org'),
  PAYPAL_CLIENT_ID: optionalString,
  PAYPAL_CLIENT_SECRET: optionalString,
  PAYPAL_WEBHOOK_ID: optionalString,
  PAYPAL_API_URL: z.url().default('https://api-m.paypal.com'),
  /** The landing page's demo video (an embed URL, e.g. a YouTube or Vimeo player); loaded only on a click. */
  DEMO_VIDEO_URL: optionalUrl,
  CADDY_ADMIN_URL: optionalUrl,
  CADVISOR_URL: optionalUrl,
  TRUST_PROXY: optionalString,
  PUBLIC_DOMAIN: optionalString,
  VM_PROVIDER: z.enum(['local', 'ssh', 'azure']).default('local'),
  DOCKER_SOCKET: z.string().default('/var/run/docker.sock'),
  AZURE_SUBSCRIPTION_ID: optionalString,
  AZURE_RESOURCE_GROUP: optionalString,
  AZURE_LOCATION: z.string().default('westeurope'),
  AZURE_SUBNET_ID: optionalString,
  AZURE_ARM_URL: z.url().default('https://management.azure.com'),
  AZURE_KEY_VAULT_URL: optionalUrl,
  AZURE_KEY_VAULT_KEY_NAME: optionalString,
  SSH_HOST: optionalString,
  SSH_PORT: z.coerce.number().int().min(1).max(65535).default(22),
  SSH_USER: optionalString,
  SSH_PRIVATE_KEY_FILE: optionalString,
  INGRESS_HTTPS_PORT: z.coerce.number().int().min(1).max(65535).default(443),
  /** The public addresses an apex custom domain's A/AAAA records point at (comma-separated). */
  INGRESS_ADDRESSES: optionalString,
  /** The resolvers custom-domain checks ask (`host` or `host:port`, comma-separated); the system's by default. */
  DNS_SERVERS: optionalString,
  /** The ACME directory custom domains' certificates come from: any RFC 8555 CA. */
  ACME_CA: optionalUrl,
  /** `true`: Let's Encrypt's staging directory (when ACME_CA is not set). */
  ACME_STAGING: z.enum(['true', 'false']).default('false'),
  ACME_EMAIL: optionalString,
  /** A PEM file of the root the ACME directory's own HTTPS chains to, when it is not a public one. */
  ACME_CA_ROOT: optionalString,
  /** The CA's names in CAA records (comma-separated); Let's Encrypt's by default. */
  ACME_CAA_IDENTITIES: z.string().default('letsencrypt.org'),
  DEPLOY_HEALTH_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(600).default(60),
  DEPLOY_KEEP_VERSIONS: z.coerce.number().int().min(1).max(20).default(5),
  DEPLOY_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  DEPLOY_MIN_FREE_DISK_MB: z.coerce.number().int().min(0).default(2048),
  /** Where workspaces' bridge networks get their subnets (infra/compose/networkSubnets.ts), and each one's size. */
  WORKSPACE_NETWORK_POOL: z.string().trim().default(DEFAULT_NETWORK_POOL),
  WORKSPACE_NETWORK_SIZE: z.coerce.number().int().default(DEFAULT_NETWORK_SIZE),
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(3),
  HEALTH_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  METRIC_SAMPLE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  LOG_RETENTION_LINES: z.coerce.number().int().min(100).default(50_000),
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(14),
  SYSTEM_HEALTH_IMAGE: z.string().default('busybox:1.36'),
  ...backupEnvShape,
  ...clusterEnvShape,
});

export type Env = z.infer<typeof envSchema>;
